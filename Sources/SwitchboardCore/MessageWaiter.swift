/// Something parked on the bus until news arrives: a suspended long-poll or
/// SSE connection, for instance.
public protocol MessageWaiter: AnyObject, Sendable {
    /// Un-parks the waiter. Called at most once per park, outside the bus's
    /// lock, by whoever took the waiter out of the bus (a publish, a deadline,
    /// a keepalive tick or the shutdown).
    func wake()
}
