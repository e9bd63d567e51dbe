extension MessageBus {
    /// Most messages handed to a subscriber at once: the default batch of
    /// every push transport.
    public static let deliveryBatch = 64

    /// The delivery loop of every transport: reads the subscriber's rooms
    /// after its cursor, hands each batch to ``Subscriber/deliver(_:)``,
    /// counts it, advances the cursor, and when nothing is left parks the
    /// subscriber (calling `park` under the bus's lock, so the wake-up can
    /// never come before the park). Run it on the subscriber's own thread.
    public func pump(_ subscriber: any Subscriber, limit: Int = deliveryBatch, park: () -> Void) throws -> PumpOutcome {
        try pump(subscriber, limit: limit, parks: true, park: park, whileFetching: {})
    }

    /// ``pump(_:limit:park:)`` for a subscriber that never parks (a short
    /// poll, a long poll past its deadline): nothing new is ``PumpOutcome/empty``.
    /// While the store is read for it off this thread the outcome is
    /// ``PumpOutcome/fetching``, after `whileFetching` was called (e.g.
    /// suspend the connection: the wake-up cannot come before it).
    public func pumpWithoutParking(_ subscriber: any Subscriber, limit: Int = deliveryBatch,
                                   whileFetching: () -> Void = {}) throws -> PumpOutcome {
        try pump(subscriber, limit: limit, parks: false, park: {}, whileFetching: whileFetching)
    }

    /// `parks`: park when nothing is new (`park` is called then). Both
    /// closures stay non-escaping: an optional closure would be boxed on the
    /// heap at every call (two allocations a long poll, under callgrind).
    private func pump(_ subscriber: any Subscriber, limit: Int, parks: Bool, park: () -> Void,
                      whileFetching: () -> Void) throws -> PumpOutcome {
        while true {
            let read: BusRead
            if parks {
                read = try readOrPark(after: subscriber.cursor, in: subscriber.filter, limit: limit, for: subscriber, park: park)
            } else {
                read = try readWithoutParking(after: subscriber.cursor, limit: limit, for: subscriber, whileFetching: whileFetching)
                if case .messages(let found, _) = read, found.isEmpty { return .empty }
            }
            switch read {
            case .messages(let batch, let scannedThrough):
                let more = subscriber.deliver(batch)
                stats.delivered(batch, transport: subscriber.transport)
                subscriber.cursor = max(subscriber.cursor, scannedThrough)
                if !more { return .delivered }
            case .parked: return .parked
            // Waiting for the store is parking, to a pump that parks.
            case .fetching: return parks ? .parked : .fetching
            case .closed: return .closed
            case .cancelled: return .cancelled
            case .interrupted: return .interrupted
            }
        }
    }
}
