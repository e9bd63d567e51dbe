import Synchronization

/// Parking: a subscriber with nothing new waits on the bus (``ParkedSubscribers``)
/// until a publish in its rooms, its cancellation, a keepalive tick or the
/// close takes it out and wakes it. Every park happens under the bus's lock,
/// with `park` (suspend the connection) called inside it, so that no wake-up
/// can come before the park it ends.
extension MessageBus {
    /// Messages after `cursor` in `filter`; when there are none, parks `subscriber`
    /// and calls `park` (e.g. suspend the connection) while still holding the
    /// bus's lock, so that the wake-up can never come before the park. A
    /// cursor older than the ring starts a store read off this thread, calls
    /// `park` too and returns ``BusRead/fetching``: its end wakes the subscriber.
    public func readOrPark(after cursor: Int64, in filter: RoomFilter, limit: Int,
                           for subscriber: any Subscriber, park: () -> Void) throws -> BusRead {
        var cursor = cursor
        // Read once: its own thread changes it only while it is out of the bus.
        let access = subscriber.access
        while true {
            switch try readStoreIfBehind(after: &cursor, in: filter, access: access, limit: limit,
                                         for: subscriber, whileFetching: park) {
            case .found(let messages, let scannedThrough): return .messages(MessageBatch(messages), scannedThrough: scannedThrough)
            case .fetching: return .fetching
            case .readRing: break
            }
            let outcome = state.withLock { state -> BusRead? in
                if subscriber.isCancelled { return .cancelled }
                if subscriber.isInterrupted { return .interrupted }
                guard cursor >= state.recent.coveredAfter else { return nil }
                let found = state.recent.read(after: cursor, in: filter, access: access, limit: limit)
                if !found.messages.isEmpty {
                    return .messages(found.messages, scannedThrough: found.scannedThrough)
                }
                if state.closed { return .closed }
                state.parked.insert(subscriber, filter: filter)
                park()
                return .parked
            }
            if let outcome { return outcome }
        }
    }

    /// Parks `subscriber` (calling `park` under the lock) if nothing new
    /// is there for it, as ``readOrPark(after:in:limit:for:park:)`` would;
    /// otherwise parks nothing, takes nothing and returns false (something
    /// new, or it is cancelled or interrupted, behind the ring, or the bus
    /// closed: its next pump finds which). For a subscriber that has had its
    /// turn and shares its thread with many: what is new waits for its next
    /// turn, behind those woken before it.
    public func parkIfNothingNew(_ subscriber: any Subscriber, park: () -> Void) -> Bool {
        state.withLock { state in
            guard !subscriber.isCancelled, !subscriber.isInterrupted, !state.closed,
                  subscriber.cursor >= state.recent.coveredAfter,
                  !state.recent.hasAny(after: subscriber.cursor, in: subscriber.filter, access: subscriber.access)
            else { return false }
            state.parked.insert(subscriber, filter: subscriber.filter)
            park()
            return true
        }
    }

    /// Parks `subscriber` whatever its cursor (calling `park` under the lock),
    /// so that the next publish in its rooms, a keepalive tick or the
    /// shutdown wakes it: how a stream whose catch-up the store did not
    /// answer waits to try again, its heartbeats going on. False (not
    /// parked, `park` not called) when it is cancelled or the bus closed.
    public func parkUntilWoken(_ subscriber: any Subscriber, park: () -> Void) -> Bool {
        state.withLock { state in
            if subscriber.isCancelled || state.closed { return false }
            state.parked.insert(subscriber, filter: subscriber.filter)
            park()
            return true
        }
    }

    /// Takes `subscriber` out of the bus if it is parked, and reports whether
    /// it was. The caller that gets `true` owns the wake-up.
    public func unpark(_ subscriber: any Subscriber) -> Bool {
        state.withLock { $0.parked.remove(subscriber) } != nil
    }

    /// Runs `body` under the bus's lock if `subscriber` is parked, leaving
    /// it parked; false (`body` not run) if it is not. Nothing can wake it
    /// while `body` runs (a wake-up takes it out under this lock first), so
    /// `body` may touch what its own thread touches once woken.
    public func whileParked(_ subscriber: any Subscriber, _ body: () -> Void) -> Bool {
        state.withLock { _ in
            guard subscriber.parkingSpot.parked != nil else { return false }
            body()
            return true
        }
    }

    /// Call after making `subscriber.isCancelled` true: wakes it if it is
    /// parked. If it is on its way to parking instead, the bus sees the flag
    /// under its lock and refuses (``BusRead/cancelled``), so nothing is lost.
    public func cancel(_ subscriber: any Subscriber) {
        if unpark(subscriber) { subscriber.wake() }
    }

    /// Takes out every parked subscriber passing `predicate`, and wakes each.
    /// Returns how many were woken.
    @discardableResult
    public func wakeAll(where predicate: (any Subscriber) -> Bool) -> Int {
        let woken = state.withLock { $0.parked.removeAll(where: predicate) }
        for subscriber in woken { subscriber.wake() }
        return woken.count
    }
}
