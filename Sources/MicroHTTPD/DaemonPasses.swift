/// What the thread that runs a daemon of one worker (``DaemonLoop``) tells
/// the code it serves, on that thread: work that the handlers of one pass
/// hand to another thread can then be handed over once per pass, not once
/// per request (see ``HTTPDaemonConfiguration/passes``).
public struct DaemonPasses: Sendable {
    /// Once, on the loop's thread, before its first pass.
    public var started: @Sendable () -> Void
    /// After every pass of libmicrohttpd's loop (`MHD_run`), before the loop sleeps.
    public var ended: @Sendable () -> Void
    /// Once, on the loop's thread, after its last pass.
    public var stopped: @Sendable () -> Void

    public init(started: @escaping @Sendable () -> Void, ended: @escaping @Sendable () -> Void,
                stopped: @escaping @Sendable () -> Void) {
        self.started = started
        self.ended = ended
        self.stopped = stopped
    }
}
