import Dispatch
import Synchronization

/// Publishing: the group commit's one function, deletions, and the ring
/// writes that publishing and ``ingest()`` share.
extension MessageBus {
    /// Queues a server-written message (a `join`, `leave` or `system`)
    /// for the next group commit, after everything queued before it;
    /// `completion`, if any, runs on the commit thread with the stored
    /// message, or nil when the store did not announce it (on a store shared
    /// by several nodes, a `join` of a user present on another node too:
    /// see ``MessageStore/commit(_:timestamp:)``).
    public func announce(_ draft: MessageDraft,
                         completion: (@Sendable (Result<EncodedMessage?, SwitchboardError>) -> Void)? = nil) {
        if draft.kind == .join {
            state.withLock { state in
                if state.firstJoins[draft.room] == nil, state.rooms[draft.room] == nil { state.firstJoins[draft.room] = draft.user }
            }
        }
        groupCommit.submit(draft, completion: completion)
    }

    /// Queues a presence `leave`, like ``announce(_:completion:)``, except
    /// that a room whose only stored message is this user's own `join` (a
    /// room that was entered and left with nothing said: one `join:` of a
    /// hop through rooms) keeps no trace: the join is deleted (no tombstone),
    /// the leave is not stored, and the room no longer exists. On a store
    /// shared by several nodes, where joins and leaves are presence claims,
    /// the leave is always stored.
    public func announceLeave(_ leave: MessageDraft) {
        let mayRetract = !store.sharesPresence && state.withLock { state in
            // Not known yet, with this user's join first in the queue: decided on the commit thread.
            state.soleJoins[leave.room]?.user == leave.user
                || (state.rooms[leave.room] == nil && state.firstJoins[leave.room] == leave.user)
        }
        guard mayRetract else { return announce(leave) }
        groupCommit.submitBarrier { [weak self] in self?.leaveOrRetract(leave) }
    }

    /// On the commit thread, after the join: takes it back, or stores the leave.
    private func leaveOrRetract(_ leave: MessageDraft) {
        let result: Result<Published, SwitchboardError>? = publishing.withLock { _ in
            if state.withLock({ $0.closed }) { return .failure(.shuttingDown) }
            guard let sole = state.withLock({ $0.soleJoins[leave.room] }), sole.user == leave.user else {
                return appendLocked([leave])
            }
            do {
                _ = try gate.trackingCommit { try store.delete(id: sole.id) }
            } catch {
                return appendLocked([leave])  // the store decides; a failing one refuses this too
            }
            state.withLock { state in
                state.recent.markDeleted(sole.id)
                state.soleJoins[leave.room] = nil
                state.rooms.remove(leave.room)
            }
            catchUp.remove(sole.id)
            return nil
        }
        if case .success(let published)? = result { _ = deliver(published) }
    }

    /// Queues `draft` for the next group commit: everything waiting is stored
    /// in one transaction, ids in arrival order, and `completion` runs (on the
    /// commit thread) once it is durable and its room's subscribers are woken.
    /// Nobody's thread waits on the disk.
    public func publish(_ draft: MessageDraft, completion: @escaping @Sendable (Result<EncodedMessage, SwitchboardError>) -> Void) {
        groupCommit.submitMessage(draft, completion: completion)
    }

    /// Stores a group as one transaction and wakes its subscribers (the group
    /// commit's one function, run on its thread).
    func commit(_ drafts: [MessageDraft]) -> Result<[EncodedMessage?], SwitchboardError> {
        let result: Result<Published, SwitchboardError> = publishing.withLock { _ in
            if state.withLock({ $0.closed }) { return .failure(.shuttingDown) }
            return appendLocked(drafts)
        }
        switch result {
        case .success: noteWrite(failure: nil)
        case .failure(let error): noteWrite(failure: error)
        }
        return result.map(deliver)
    }

    /// Deletes a stored message, on the commit thread after everything
    /// queued before it: it disappears from every later read, and a `delete`
    /// tombstone (its `text` the deleted id) is published in its room so
    /// live clients can remove it. `completion` gets the tombstone, or nil
    /// when there is no such message.
    /// Answered with `store_unavailable` once the store has not done it in
    /// `--store-timeout` (not done, unless it had begun).
    public func delete(id: Int64, completion: @escaping @Sendable (Result<EncodedMessage?, SwitchboardError>) -> Void) {
        let ticket = StoreTicket(completion)
        groupCommit.submitBarrier { [weak self] in
            guard ticket.begin() else { return }
            guard let self else { return ticket.finish(.failure(.shuttingDown)) }
            ticket.finish(self.deleteNow(id: id))
        }
        gate.expire(ticket)
    }

    private func deleteNow(id: Int64) -> Result<EncodedMessage?, SwitchboardError> {
        let result: Result<Published, SwitchboardError>? = publishing.withLock { _ in
            if state.withLock({ $0.closed }) { return .failure(.shuttingDown) }
            let removed: Message?
            do { removed = try gate.trackingCommit { try store.delete(id: id) } } catch { return .failure(.storeFailure(because: error)) }
            guard let removed, removed.kind != .delete else { return nil }
            state.withLock { $0.recent.markDeleted(id) }
            catchUp.remove(id)
            return appendLocked([MessageDraft(room: removed.room, user: MessageLimits.systemUser, text: String(id), kind: .delete)])
        }
        guard let result else { return .success(nil) }
        return result.map { deliver($0)[0] }
    }

    struct Published {
        /// One per draft: nil where the store kept no message.
        var messages: [EncodedMessage?]
        /// Each once: a subscriber leaves the parked set when it is taken.
        var woken: [any Subscriber]
        /// Membership changed by the group's conversation events.
        var changes: [ConversationChange]
        var storeNanoseconds: UInt64
        /// What the group stored now, in order (``messages`` without the
        /// nils and the replays of a client id sent before).
        var own: [EncodedMessage]
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
            stored = try gate.trackingCommit { try store.commit(drafts, timestamp: clock()) }
        } catch {
            // A store that did not answer is a stall (the gate reports it while it lasts), not a refused write.
            if store.didNotAnswer(error) { return .failure(.storeTimedOut(seconds: gate.timeoutSeconds)) }
            return .failure(.storeFailure(because: error))
        }
        let storeNanoseconds = DeadlineScheduler.now() - started
        let messages = Self.encoded(consume stored)
        // A client id sent before stored nothing: its message is answered, not appended again.
        let own = messages.compactMap { $0.flatMap { $0.message.replayed ? nil : $0 } }
        var woken: [any Subscriber] = []
        var changes: [ConversationChange] = []
        if let first = own.first, let earlier = try? committedElsewhere(before: first.id) {
            state.withLock { state in
                for message in earlier + own { appendToRing(message, in: &state, waking: &woken, changes: &changes) }
            }
        }
        return .success(Published(messages: messages, woken: woken, changes: changes, storeNanoseconds: storeNanoseconds, own: own))
    }

    /// `stored`, encoded, each message moved out of the array rather than
    /// copied (a `map` copied every one, its references retained, then
    /// released them all with the array: 430 instructions a publish).
    private static func encoded(_ stored: consuming [Message?]) -> [EncodedMessage?] {
        var messages = [EncodedMessage?](repeating: nil, count: stored.count)
        while case .some(let element) = stored.popLast() {
            if case .some(let message) = consume element { messages[stored.count] = EncodedMessage(message) }
        }
        return messages
    }

    /// Appends one message to the ring (a tombstone also hides the message it
    /// deletes; a conversation event changes membership first, so that it is
    /// in force for every later message) and takes its room's parked subscribers.
    func appendToRing(_ message: EncodedMessage, in state: inout State, waking woken: inout [any Subscriber],
                      changes: inout [ConversationChange]) {
        guard message.id > state.recent.lastID else { return }
        // Matched, not compared with nil: `!= nil` copied the event through Optional's generic witness.
        if case .some = message.message.event { changes += conversations.apply(message.message) }
        // An operator's tombstone takes its message's row: the room's count stays.
        var counted = 1
        if let target = MessageActs.targetID(of: message.message) {
            applyAct(message.message, to: target, in: &state)
        } else if message.message.kind == .delete, let deleted = Int64(message.message.text) {
            state.recent.markDeleted(deleted)
            catchUp.remove(deleted)
            counted = 0
        }
        state.recent.append(message)
        let room = message.message.room
        if state.rooms.record(counted, id: message.id, in: room) {
            if !state.soleJoins.isEmpty, state.soleJoins[room] != nil {
                state.soleJoins[room] = nil  // something else was stored there: the room stays
            }
        } else {
            state.firstJoins[room] = nil
            if message.message.kind == .join { state.soleJoins[room] = (message.id, message.message.user) }
        }
        state.parked.removeAll(interestedIn: message, into: &woken)
    }

    /// Counts the publishes and wakes their subscribers, outside every lock.
    private func deliver(_ published: Published) -> [EncodedMessage?] {
        // Once a group: the store's timer (`/metrics`) times appends, not the
        // messages in them (told once a message, it cost 650 instructions each).
        if !published.own.isEmpty {
            stats.published(published.own.count, storeSeconds: Double(published.storeNanoseconds) / 1e9)
        }
        for subscriber in published.woken { subscriber.wake() }
        conversations.notify(published.changes)
        if !published.own.isEmpty {
            for observer in commitObservers.withLock({ $0 }) { observer(published.own) }
        }
        return published.messages
    }

    /// Calls `observer` on the commit thread with the messages each group
    /// stored on this node (not a replay, not another node's): it must only
    /// decide in memory and hand anything slower to the gate.
    public func observeCommits(_ observer: @escaping @Sendable ([EncodedMessage]) -> Void) {
        commitObservers.withLock { $0.append(observer) }
    }
}
