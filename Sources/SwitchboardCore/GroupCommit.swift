import Dispatch
import Foundation
import Synchronization

/// Publishes waiting for the store, committed together: whoever arrives
/// while a commit is running waits for the next one, which takes everything
/// pending in one transaction (one sync to disk), ids in arrival order.
///
/// The commits run on a thread of their own, asleep on a semaphore while
/// nothing is pending. Not a dispatch queue: callers that wait for their
/// commit (``MessageBus/publish(_:)``, from thousands of per-connection
/// queues at once) can take every worker thread of the dispatch pool, and a
/// committer needing one of those would never run. No caller's thread waits
/// on the disk unless it asks to.
final class GroupCommit: Sendable {
    /// Called with the stored message, or nil for a presence change the
    /// store did not announce (another node had announced it).
    typealias Completion = @Sendable (Result<EncodedMessage?, SwitchboardError>) -> Void
    typealias Commit = @Sendable ([MessageDraft]) -> Result<[EncodedMessage?], SwitchboardError>

    private struct Pending {
        var drafts: [MessageDraft] = []
        var completions: [Completion] = []
        var commit: Commit?
        var draining = false
        var stopped = false
    }

    private let pending = Mutex(Pending())
    private let work = DispatchSemaphore(value: 0)

    /// Starts the commit thread with the function that stores a group (given
    /// once, by the owner). It runs until ``stop()``, when its owner ends.
    func start(committing commit: @escaping Commit) {
        pending.withLock { $0.commit = commit }
        let thread = Thread { [self] in
            while waitForWork() { drain() }
        }
        thread.name = "switchboard-commit"
        thread.start()
    }

    /// Lets the commit thread end once nothing is pending.
    func stop() {
        pending.withLock { $0.stopped = true }
        work.signal()
    }

    /// Sleeps until there is something to commit; false once stopped and drained.
    private func waitForWork() -> Bool {
        if pending.withLock({ $0.stopped && $0.drafts.isEmpty }) { return false }
        work.wait()
        return pending.withLock { !($0.stopped && $0.drafts.isEmpty) }
    }

    /// Queues `draft`; `completion` runs on the commit thread once the
    /// draft's group is durable (or refused).
    func submit(_ draft: MessageDraft, completion: @escaping Completion) {
        let start = pending.withLock { pending -> Bool in
            pending.drafts.append(draft)
            pending.completions.append(completion)
            defer { pending.draining = true }
            return !pending.draining
        }
        if start { work.signal() }
    }

    private func drain() {
        while true {
            let (drafts, completions, commit) = pending.withLock { pending in
                defer {
                    pending.drafts.removeAll(keepingCapacity: true)
                    pending.completions.removeAll(keepingCapacity: true)
                }
                if pending.drafts.isEmpty { pending.draining = false }
                return (pending.drafts, pending.completions, pending.commit)
            }
            guard !drafts.isEmpty, let commit else { return }
            switch commit(drafts) {
            case .success(let stored):
                for (completion, message) in zip(completions, stored) { completion(.success(message)) }
            case .failure(let error):
                for completion in completions { completion(.failure(error)) }
            }
        }
    }
}
