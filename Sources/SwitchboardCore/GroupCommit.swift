import Dispatch
import Synchronization

/// Publishes waiting for the store, committed together: whoever arrives
/// while a commit is running waits for the next one, which takes everything
/// pending in one transaction (one sync to disk), ids in arrival order. One
/// serial queue does the commits, so no caller's thread waits on the disk
/// unless it asks to (``MessageBus/publish(_:)``).
final class GroupCommit: Sendable {
    typealias Completion = @Sendable (Result<EncodedMessage, SwitchboardError>) -> Void
    typealias Commit = @Sendable ([MessageDraft]) -> Result<[EncodedMessage], SwitchboardError>

    private struct Pending {
        var drafts: [MessageDraft] = []
        var completions: [Completion] = []
        var draining = false
    }

    private let queue = DispatchQueue(label: "switchboard.bus.commit")
    private let pending = Mutex(Pending())

    /// Queues `draft`; `commit` stores a whole group; `completion` runs on the
    /// commit queue once the draft's group is durable (or refused).
    func submit(_ draft: MessageDraft, commit: @escaping Commit, completion: @escaping Completion) {
        let start = pending.withLock { pending -> Bool in
            pending.drafts.append(draft)
            pending.completions.append(completion)
            defer { pending.draining = true }
            return !pending.draining
        }
        if start { queue.async { self.drain(commit) } }
    }

    private func drain(_ commit: Commit) {
        while true {
            let (drafts, completions) = pending.withLock { pending in
                defer {
                    pending.drafts.removeAll(keepingCapacity: true)
                    pending.completions.removeAll(keepingCapacity: true)
                }
                if pending.drafts.isEmpty { pending.draining = false }
                return (pending.drafts, pending.completions)
            }
            if drafts.isEmpty { return }
            switch commit(drafts) {
            case .success(let stored):
                for (completion, message) in zip(completions, stored) { completion(.success(message)) }
            case .failure(let error):
                for completion in completions { completion(.failure(error)) }
            }
        }
    }
}
