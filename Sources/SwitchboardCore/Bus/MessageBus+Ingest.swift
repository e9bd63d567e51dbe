extension MessageBus {
    /// How many messages one store read brings into the ring.
    static let ingestBatch = 512

    /// Brings in what other nodes sharing the store have committed since the
    /// ring's last id, in id order, and wakes their rooms' subscribers. A node
    /// calls it when another says it committed (PostgreSQL's NOTIFY), after
    /// reconnecting, and on a slow timer, so a lost notification costs
    /// latency, never a message. Returns how many messages came in.
    @discardableResult
    public func ingest() throws -> Int {
        var woken: [any Subscriber] = []
        var changes: [ConversationChange] = []
        let count = try publishing.withLock { _ -> Int in
            if state.withLock({ $0.closed }) { return 0 }
            var count = 0
            while true {
                let cursor = state.withLock { $0.recent.lastID }
                let batch = try store.messages(after: cursor, in: .all, limit: Self.ingestBatch)
                state.withLock { state in
                    for message in batch.messages { appendToRing(EncodedMessage(message), in: &state, waking: &woken, changes: &changes) }
                }
                count += batch.messages.count
                if batch.messages.count < Self.ingestBatch { return count }
            }
        }
        // Taken under several holds of the lock: one woken by an earlier batch
        // may have parked again (pumped for its own reasons) and been taken twice.
        var seen = Set<ObjectIdentifier>()
        for subscriber in woken where seen.insert(ObjectIdentifier(subscriber)).inserted { subscriber.wake() }
        conversations.notify(changes)
        if count > 0 {
            for observer in ingestObservers.withLock({ $0 }) { observer(count) }
        }
        return count
    }

    /// Calls `observer` with how many messages each ``ingest()`` brought in
    /// from other nodes (none: not called), on the thread that ingested: it
    /// must only decide in memory. What reads the log for every node (the
    /// webhooks) wakes on it, as it wakes on this node's commits
    /// (``observeCommits(_:)``).
    public func observeIngests(_ observer: @escaping @Sendable (Int) -> Void) {
        ingestObservers.withLock { $0.append(observer) }
    }

    /// Messages committed by other nodes after the ring's last id and before
    /// `id` (this node's next). Every one of them is final: ids are assigned
    /// and committed in one order. Call with `publishing` held.
    func committedElsewhere(before id: Int64) throws -> [EncodedMessage] {
        var cursor = state.withLock { $0.recent.lastID }
        var found: [EncodedMessage] = []
        while cursor + 1 < id {
            let batch = try store.messages(after: cursor, in: .all, limit: Self.ingestBatch)
            let earlier = batch.messages.prefix { $0.id < id }
            found += earlier.map(EncodedMessage.init)
            guard earlier.count == Self.ingestBatch, let last = earlier.last else { break }
            cursor = last.id
        }
        return found
    }
}
