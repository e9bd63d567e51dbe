/// Something parked on the bus until news arrives: a suspended long-poll or
/// SSE connection, for instance.
public protocol MessageWaiter: AnyObject, Sendable {
    /// Un-parks the waiter. Called at most once per park, outside the bus's
    /// lock, by whoever took the waiter out of the bus (a publish, a deadline,
    /// a keepalive tick or the shutdown).
    func wake()

    /// True once the waiter must not be parked again (its stream was ended,
    /// its user kicked). Read by the bus under its lock, so a cancellation
    /// that races with a park is never lost; see ``MessageBus/cancel(_:)``.
    var isCancelled: Bool { get }
}

extension MessageWaiter {
    /// Waiters are not cancellable unless they say so.
    public var isCancelled: Bool { false }
}
