/// A subscriber's reads older than the ring: from the store, on the
/// caller's thread for the server's own readers, through the gate (off the
/// serving thread, ``StoreFetch``) for every transport's subscriber.
extension MessageBus {
    /// What ``readStoreIfBehind(after:in:access:limit:for:whileFetching:)`` found.
    enum StoreStep {
        /// The cursor is within the ring (maybe moved past what the store had for this reader): read the ring.
        case readRing
        /// Stored messages the reader sees.
        case found([EncodedMessage], scannedThrough: Int64)
        /// A store read is under way off the caller's thread; `whileFetching` was called.
        case fetching
    }

    /// When `cursor` is older than the ring, reads from the store: on this
    /// thread for a reader without a ``StoreFetch``; otherwise through the
    /// gate, the subscriber woken when it is done. A store read that found
    /// nothing this reader sees moves `cursor` on (read the ring, or further).
    /// A failed or timed-out read is thrown, once, to the pump that finds it.
    func readStoreIfBehind(after cursor: inout Int64, in filter: RoomFilter, access: RoomAccess, limit: Int,
                                   for subscriber: (any Subscriber)?, whileFetching: () -> Void) throws -> StoreStep {
        let behind = state.withLock { cursor < $0.recent.coveredAfter }
        guard behind else { return .readRing }
        let batch: StoreFetch.Batch
        if let subscriber, let fetch = subscriber.storeFetch {
            enum Next { case start, wait, take(Result<StoreFetch.Batch, SwitchboardError>) }
            let after = cursor
            let next = fetch.stage.withLock { stage -> Next in
                switch stage {
                case .done(after, let result):
                    stage = .idle
                    return .take(result)
                case .underWay(after):
                    whileFetching()
                    return .wait
                case .idle, .underWay, .done:
                    stage = .underWay(after: after)
                    whileFetching()
                    return .start
                }
            }
            switch next {
            case .wait: return .fetching
            case .start:
                startFetch(after: after, in: filter, limit: limit, for: subscriber, into: fetch)
                return .fetching
            case .take(let result): batch = try result.get()
            }
        } else {
            let read = try store.messages(after: cursor, in: filter, limit: limit)
            batch = (catchUp.encoded(read.messages), read.scannedThrough)
        }
        let visible = batch.messages.filter(access.sees)
        if !visible.isEmpty { return .found(visible, scannedThrough: batch.scannedThrough) }
        cursor = max(cursor, batch.scannedThrough)
        return .readRing
    }

    /// Reads the store after `cursor` on the gate's threads; puts the result
    /// in `fetch` and wakes `subscriber` (if it is still there).
    private func startFetch(after cursor: Int64, in filter: RoomFilter, limit: Int, for subscriber: any Subscriber,
                            into fetch: StoreFetch) {
        let (store, catchUp) = (store, catchUp)
        gate.run("a catch-up read", { () -> StoreFetch.Batch in
            let read = try store.messages(after: cursor, in: filter, limit: limit)
            return (catchUp.encoded(read.messages), read.scannedThrough)
        }, completion: { [weak subscriber] result in
            let current = fetch.stage.withLock { stage -> Bool in
                guard case .underWay(cursor) = stage else { return false }
                stage = .done(after: cursor, result)
                return true
            }
            if current { subscriber?.wake() }
        })
    }
}
