import Dispatch
import Synchronization

/// Publishing: the group commit's one function, deletions, and the ring
/// writes that publishing and ``ingest()`` share.
extension MessageBus {
    /// Stores `draft` durably, then wakes every parked subscriber of its room.
    /// Returns once the message is stored: it is then acknowledged. (The
    /// calling thread waits for the group commit; see ``publish(_:completion:)``.)
    /// - Throws: ``SwitchboardError/shuttingDown`` after ``close()``, or
    ///   ``SwitchboardError/storeFailure(_:)`` when the store refuses it.
    @discardableResult
    public func publish(_ draft: MessageDraft) throws(SwitchboardError) -> EncodedMessage {
        guard let message = try announce(draft) else { throw SwitchboardError.storeFailure(Self.notKept) }
        return message
    }

    /// ``publish(_:)`` for a `join` or `leave`: nil when the store did not
    /// announce it, because on a store shared by several nodes the user is
    /// present on another node too (see ``MessageStore/commit(_:timestamp:)``).
    @discardableResult
    public func announce(_ draft: MessageDraft) throws(SwitchboardError) -> EncodedMessage? {
        try queueAnnouncement(draft).wait().get()
    }

    /// ``announce(_:)`` in two steps, for a caller that queues changes in
    /// order under a lock of its own but must not wait for the disk while
    /// holding it: `draft` is queued now, so it is stored after everything
    /// queued before it, and the answer waits for its commit. Many callers
    /// then share one commit (one sync) instead of taking one each.
    public func queueAnnouncement(_ draft: MessageDraft) -> PendingAnnouncement {
        let pending = PendingAnnouncement()
        groupCommit.submit(draft) { result in pending.complete(result) }
        return pending
    }

    /// Queues `draft` for the next group commit: everything waiting is stored
    /// in one transaction, ids in arrival order, and `completion` runs (on the
    /// commit thread) once it is durable and its room's subscribers are woken.
    /// Nobody's thread waits on the disk.
    public func publish(_ draft: MessageDraft, completion: @escaping @Sendable (Result<EncodedMessage, SwitchboardError>) -> Void) {
        groupCommit.submit(draft) { result in
            completion(result.flatMap { $0.map { .success($0) } ?? .failure(.storeFailure(Self.notKept)) })
        }
    }

    private static let notKept = "the store did not keep the message"

    /// Stores a group as one transaction and wakes its subscribers (the group
    /// commit's one function, run on its thread).
    func commit(_ drafts: [MessageDraft]) -> Result<[EncodedMessage?], SwitchboardError> {
        let result: Result<Published, SwitchboardError> = publishing.withLock { _ in
            if state.withLock({ $0.closed }) { return .failure(.shuttingDown) }
            return appendLocked(drafts)
        }
        return result.map(deliver)
    }

    /// Deletes a stored message: it disappears from every later read, and a
    /// `delete` tombstone (its `text` the deleted id) is published in its room
    /// so live clients can remove it.
    /// - Returns: the tombstone, or nil when there is no such message.
    public func delete(id: Int64) throws(SwitchboardError) -> EncodedMessage? {
        let result: Result<Published, SwitchboardError>? = publishing.withLock { _ in
            if state.withLock({ $0.closed }) { return .failure(.shuttingDown) }
            let removed: Message?
            do { removed = try store.delete(id: id) } catch { return .failure(.storeFailure("\(error)")) }
            guard let removed, removed.kind != .delete else { return nil }
            state.withLock { $0.recent.markDeleted(id) }
            catchUp.remove(id)
            return appendLocked([MessageDraft(room: removed.room, user: MessageLimits.systemUser, text: String(id), kind: .delete)])
        }
        guard let result else { return nil }
        return try deliver(result.get())[0].map { $0 }
    }

    struct Published {
        /// One per draft: nil where the store kept no message.
        var messages: [EncodedMessage?]
        /// Each once: a subscriber leaves the parked set when it is taken.
        var woken: [any Subscriber]
        var storeNanoseconds: UInt64
    }

    /// Stores a group in one transaction, encodes each message, appends them
    /// to the ring and takes their rooms' subscribers. Call with `publishing` held.
    ///
    /// On a store shared by several nodes, other nodes may have committed ids
    /// between the ring's last and this group's first; those are read and
    /// appended first, so the ring stays a contiguous run of ids. If that
    /// read fails, nothing goes into the ring now: the group is durable
    /// (so acknowledged), and ``ingest()`` brings it in order later.
    private func appendLocked(_ drafts: [MessageDraft]) -> Result<Published, SwitchboardError> {
        let started = DeadlineScheduler.now()
        let stored: [Message?]
        do {
            stored = try store.commit(drafts, timestamp: clock())
        } catch {
            return .failure(.storeFailure("\(error)"))
        }
        let storeNanoseconds = DeadlineScheduler.now() - started
        let messages = stored.map { $0.map(EncodedMessage.init) }
        let own = messages.compactMap { $0 }
        var woken: [any Subscriber] = []
        if let first = own.first, let earlier = try? committedElsewhere(before: first.id) {
            state.withLock { state in
                for message in earlier + own { appendToRing(message, in: &state, waking: &woken) }
            }
        }
        return .success(Published(messages: messages, woken: woken, storeNanoseconds: storeNanoseconds))
    }

    /// Appends one message to the ring (a tombstone also hides the message it
    /// deletes) and takes its room's parked subscribers.
    func appendToRing(_ message: EncodedMessage, in state: inout State, waking woken: inout [any Subscriber]) {
        guard message.id > state.recent.lastID else { return }
        if message.message.kind == .delete, let deleted = Int64(message.message.text) {
            state.recent.markDeleted(deleted)
            catchUp.remove(deleted)
        }
        state.recent.append(message)
        state.parked.removeAll(interestedIn: message.message.room, into: &woken)
    }

    /// Counts the publishes and wakes their subscribers, outside every lock.
    private func deliver(_ published: Published) -> [EncodedMessage?] {
        let storeSeconds = Double(published.storeNanoseconds) / 1e9
        for _ in published.messages.compactMap({ $0 }) { stats.published(storeSeconds: storeSeconds) }
        for subscriber in published.woken { subscriber.wake() }
        return published.messages
    }
}
