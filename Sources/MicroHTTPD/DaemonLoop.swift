import CMicroHTTPD
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The thread that runs a daemon started without one of its own
/// (libmicrohttpd's external epoll mode): `MHD_run`, then sleep on
/// libmicrohttpd's epoll set, its next timeout and a wake-up of our own.
///
/// Why: a daemon with its own thread must be woken through its
/// inter-thread channel, and `MHD_resume_connection` writes that eventfd at
/// every call: one system call per resumed publish, per SSE delivery. A
/// daemon run from outside has no such channel; a resume only marks the
/// connection, and whoever resumes calls ``wake()``, which writes our
/// eventfd once until the loop has run again, however many resumes came.
///
/// Wake-ups that come in thousands (a message for every stream and long
/// poll of a room) are resumed by this thread itself, a turn at a time
/// before each pass (``ResumeTurns``): the thread that delivers a message
/// hands its wake-ups straight to the thread that serves them.
final class DaemonLoop: @unchecked Sendable {
    private let wakePending = Atomic<Bool>(false)
    /// An exchange was resumed on its own (``wakeForResume()``) or asked
    /// again (``askedAgain()``) since the last pass: its answer comes first.
    private let answersWaiting = Atomic<Bool>(false)
    private let turns: ResumeTurns<HTTPExchange>
    private let passes: DaemonPasses?
    private let stopping = Atomic<Bool>(false)
    /// Until when (``DispatchTime`` nanoseconds) the loop sleeps at most
    /// ``closingPassMilliseconds`` between passes: see ``releaseUpgrade(_:)``.
    private let closingUntil = Atomic<UInt64>(0)
    /// An upgrade's handle, for ``releaseUpgrade(_:)``'s list.
    private struct UpgradeHandle: @unchecked Sendable {
        let pointer: OpaquePointer
    }
    /// Upgrades released since the last pass; nil once the loop has ended.
    private struct ReleasedUpgrades: Sendable {
        var handles: [UpgradeHandle]? = []
    }
    private let releasedUpgrades = Mutex(ReleasedUpgrades())
    /// Whether ``releasedUpgrades`` may hold any: a pass looks at the lock only then.
    private let upgradesReleased = Atomic<Bool>(false)
    /// How often the loop runs while an upgraded TLS connection closes.
    static let closingPassMilliseconds: Int32 = 10
    /// How long after a release it does.
    static let closingNanoseconds: UInt64 = 250_000_000
    private let finished = DispatchSemaphore(value: 0)
    private let wakeFD: Int32
    // `@exclusivity(unchecked)` below: set before the loop's thread starts, then read by it
    // (docs/ARCHITECTURE.md, "Exclusivity checked where it can fail").
    /// The epoll set the loop sleeps on; -1 until ``start(_:)``.
    @exclusivity(unchecked) private var set: Int32 = -1
    /// This worker's share of the connection limit; set before ``start(_:)``.
    @exclusivity(unchecked) var connectionLimit = Int.max
    // On the loop's thread only (libmicrohttpd's notices and log come from its passes):
    /// Connections open, as libmicrohttpd told them (``connectionOpened()``).
    @exclusivity(unchecked) private var openConnections = 0
    /// Whether libmicrohttpd took its listening socket out of its epoll set: at the connection limit, or at the
    /// open-file limit. It puts it back at the start of a pass after a connection closed, not when the close is seen.
    @exclusivity(unchecked) private var listenerOut = false
    /// A pass is owed at once (``connectionClosed()``).
    @exclusivity(unchecked) private var passOwed = false

    /// The wake-up's eventfd; the thread starts with ``start(_:)``.
    /// - Parameter turnSize: most exchanges of ``resumeInTurn(_:)`` resumed before one pass.
    /// - Parameter passes: told of each pass, on the loop's thread.
    init(turnSize: Int, passes: DaemonPasses?) throws(MicroHTTPDError) {
        turns = ResumeTurns(turnSize: turnSize)
        self.passes = passes
        wakeFD = sb_eventfd_create()
        guard wakeFD >= 0 else { throw MicroHTTPDError(operation: "make the daemon loop's eventfd", errno: errno) }
    }

    /// Starts the loop's thread on `daemon` (started in external epoll mode).
    func start(_ daemon: OpaquePointer) throws(MicroHTTPDError) {
        set = sb_loop_create(daemon, wakeFD)
        guard set >= 0 else { throw MicroHTTPDError(operation: "watch the daemon's epoll set", errno: errno) }
        // Only this thread runs the daemon from now until stop() returns.
        nonisolated(unsafe) let daemon = daemon
        let thread = Thread { [self] in
            _ = sb_name_this_thread("mhd-loop")
            run(daemon)
        }
        thread.start()
    }

    /// The daemon has work from another thread (a resume, an upgraded
    /// socket released): the loop runs it soon. Safe from any thread.
    func wake() {
        if !wakePending.exchange(true, ordering: .acquiringAndReleasing) { sb_eventfd_signal(wakeFD) }
    }

    /// Tells libmicrohttpd that the owner of an upgraded TLS connection is
    /// done with it (`MHD_UPGRADE_ACTION_CLOSE`, `handle` its
    /// `MHD_UpgradeResponseHandle`), on this thread after its next pass.
    /// Safe from any thread, once a handle.
    ///
    /// Why after a pass: the close shuts the socketpair down, and the relay
    /// (edge-triggered) must see that end of file as an event of its own.
    /// Told from the owner's thread right after its last write (a
    /// WebSocket's close frame), the data and the end came as one event; the
    /// relay read the data, took the socket for drained and never read the
    /// end, so it never finished, and the TLS connection stayed open
    /// (`CLOSE-WAIT`, counted against its address) until the client gave up
    /// (`Tests/TLS/tls_test.py`). After a pass, the data is read first.
    /// Then libmicrohttpd closes the connection in a pass after the relay is
    /// done, and notes that inside a pass, where nothing tells this thread
    /// (it has no inter-thread channel): so for a short while the loop runs
    /// at least every ``closingPassMilliseconds``.
    func releaseUpgrade(_ handle: OpaquePointer) {
        let accepted = releasedUpgrades.withLock { released in
            released.handles?.append(UpgradeHandle(pointer: handle))
            return released.handles != nil
        }
        guard accepted else { return }  // stopped: libmicrohttpd closes it itself
        upgradesReleased.store(true, ordering: .releasing)
        closingUntil.store(DispatchTime.now().uptimeNanoseconds + Self.closingNanoseconds, ordering: .relaxed)
        wake()
    }

    /// Closes the upgrades released since the last call (loop thread only);
    /// true when there were any. With `finally`, refuses releases from now on.
    private func closeReleasedUpgrades(finally: Bool = false) -> Bool {
        guard upgradesReleased.exchange(false, ordering: .acquiringAndReleasing) || finally else { return false }
        let handles = releasedUpgrades.withLock { released in
            defer { released.handles = finally ? nil : [] }
            return released.handles ?? []
        }
        for handle in handles { _ = sb_upgrade_close(handle.pointer) }
        return !handles.isEmpty
    }

    /// ``wake()`` for an exchange resumed on its own (an answer the store
    /// gave, a publish's `201`): it is served in a pass before the next
    /// turn's. In a pass with a turn it would come after the turn's
    /// exchanges, all suspended before it (libmicrohttpd serves resumed
    /// connections oldest-suspended first), so a publish's answer waited
    /// for a turn's long-poll answers or stream writes (`--wake-batch`,
    /// 256). Safe from any thread.
    func wakeForResume() {
        answersWaiting.store(true, ordering: .releasing)
        wake()
    }

    /// An exchange was asked again (``HTTPExchange/askAgain(continuingWith:)``,
    /// on this thread, in a pass): the next pass, which asks it, comes at
    /// once and before the next turn, as for ``wakeForResume()``. No
    /// eventfd: the loop sees the flag when the pass ends.
    func askedAgain() {
        answersWaiting.store(true, ordering: .relaxed)
        wakePending.store(true, ordering: .relaxed)
    }

    /// Resumes `exchange` (suspended) in its turn, before a later pass,
    /// oldest first; at once after ``stop()``. Safe from any thread.
    func resumeInTurn(_ exchange: HTTPExchange) {
        guard turns.append(exchange) else { return exchange.resume() }
        wake()
    }

    /// Runs the daemon once more (what was resumed for the stop is served)
    /// and ends the thread; returns when it has ended.
    func stop() {
        guard set >= 0 else { return }
        stopping.store(true, ordering: .releasing)
        sb_eventfd_signal(wakeFD)
        finished.wait()
    }

    /// libmicrohttpd opened a connection (its notice, on this thread).
    func connectionOpened() {
        openConnections += 1
        if openConnections >= connectionLimit { listenerOut = true }
    }

    /// libmicrohttpd closed a connection (its notice, on this thread). If
    /// it had stopped accepting, a pass follows at once: only at a pass's
    /// start does it watch its listening socket again, and with nothing
    /// else to serve the loop slept with connections waiting unaccepted
    /// (the HTTP port refused all comers after an open-file limit).
    func connectionClosed() {
        openConnections -= 1
        if listenerOut { (listenerOut, passOwed) = (false, true) }
    }

    /// libmicrohttpd stopped accepting at the open-file limit (its log, on this thread).
    func acceptingStopped() {
        listenerOut = true
    }

    private func run(_ daemon: OpaquePointer) {
        passes?.started()
        while true {
            // Cleared before the run: a wake during it is seen below, and one
            // after the check below has written the eventfd the wait sees.
            wakePending.store(false, ordering: .releasing)
            // Answers first (exchanges resumed on their own or asked again), in a pass
            // without a turn (only when a turn waits: otherwise the one pass below serves them).
            if answersWaiting.exchange(false, ordering: .acquiring), turns.hasQueued {
                _ = MHD_run(daemon)
                passes?.ended()
            }
            // This thread runs the daemon: resuming only marks the connection, served by the pass below.
            let more = turns.takeTurn { $0.markResumable() }
            _ = MHD_run(daemon)
            passes?.ended()
            if stopping.load(ordering: .acquiring) { break }
            if passOwed || closeReleasedUpgrades() || more || wakePending.load(ordering: .acquiring) {
                passOwed = false
                continue
            }
            // The clock only while a release was recent (no read of it for an idle loop's every sleep):
            // the window's end is set back to 0 once passed, unless a release moved it since.
            let until = closingUntil.load(ordering: .relaxed)
            let closing = until != 0 && DispatchTime.now().uptimeNanoseconds < until
            if until != 0, !closing { _ = closingUntil.compareExchange(expected: until, desired: 0, ordering: .relaxed) }
            sb_loop_wait(daemon, set, wakeFD, closing ? Self.closingPassMilliseconds : -1)
        }
        turns.close { $0.markResumable() }
        _ = closeReleasedUpgrades(finally: true)
        _ = MHD_run(daemon)
        passes?.stopped()
        finished.signal()
    }

    deinit {
        if set >= 0 { close(set) }
        close(wakeFD)
    }
}
