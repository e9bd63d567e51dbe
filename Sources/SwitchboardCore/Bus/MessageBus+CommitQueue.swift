import Dispatch

/// The group commit's queue as others see it: running something after
/// everything queued, waiting until it is empty, and how a thread that
/// serves many requests in one pass hands its commits over once per pass.
extension MessageBus {
    /// Runs `body` on the commit thread once everything queued before it
    /// (publishes, joins, leaves, deletions) is committed or refused and
    /// their rooms' subscribers are woken: how a reply is ordered after the
    /// stores a client asked for before it, without anyone waiting.
    public func afterQueuedCommits(_ body: @escaping @Sendable () -> Void) {
        groupCommit.submitBarrier(body)
    }

    /// ``afterQueuedCommits(_:)``, or after `seconds` if the store has not
    /// got there by then (a stalled store does not hold the answer): for
    /// replies whose order after the stores is a nicety (`who:`, a poll's join).
    public func afterQueuedCommits(atMost seconds: Double, _ body: @escaping @Sendable () -> Void) {
        let ticket = StoreTicket<Void> { _ in body() }
        groupCommit.submitBarrier { ticket.finish(.success(())) }
        gate.deadlines.asyncAfter(deadline: .now() + seconds) { ticket.expire(.storeTimedOut(seconds: seconds)) }
    }

    /// For a thread that serves many requests in one pass (libmicrohttpd's
    /// loop): from now on its publishes, joins and other commits wake the
    /// commit thread once, at ``releaseCommitWakes()`` after its pass, rather
    /// than each at once; it must release after every pass and call
    /// ``endDeferringCommitWakes()`` on this thread before it ends. Nothing
    /// waits: a pass of publishes becomes one group instead of one each.
    public func deferCommitWakesOnThisThread() {
        groupCommit.deferWakesOnThisThread()
    }

    /// Wakes the commit thread for what deferring threads queued (cheap when nothing was).
    public func releaseCommitWakes() {
        groupCommit.releaseWakes()
    }

    /// Ends ``deferCommitWakesOnThisThread()`` for this thread, releasing what it holds.
    public func endDeferringCommitWakes() {
        groupCommit.endDeferringWakesOnThisThread()
    }

    /// Whether anything is queued for the store or being committed.
    public var hasQueuedCommits: Bool { groupCommit.isBusy }

    /// Waits, at most `seconds`, until nothing is queued for the store or
    /// being committed and every completion has run (``hasQueuedCommits`` is
    /// false). For shutdown, once the connections that could queue more are
    /// closed (so that no completion reaches an event loop after it stopped),
    /// and tests; never call it on a thread that serves connections.
    public func waitForQueuedCommits(seconds: Double) {
        groupCommit.waitUntilIdle(seconds: seconds)
    }
}
