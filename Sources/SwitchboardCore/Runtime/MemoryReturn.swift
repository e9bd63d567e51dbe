internal import CMalloc
import Synchronization

/// Gives memory that closed connections freed back to the system.
///
/// glibc keeps what a thread's arena freed for that arena: after a
/// WebSocket client that made the server queue megabytes (a ping flood over
/// wss) closed, the server held 15 to 30 MB more than before it came,
/// for good, although nothing referenced it (`malloc_trim` through gdb gave
/// it all back). So a streaming connection's close asks for one
/// `malloc_trim(0)` a little later on the server's scheduler: one at most
/// per `delay`, however many connections close, and none while none do
/// (no timer otherwise, no CPU while idle).
public final class MemoryReturn: Sendable {
    private let scheduler: DeadlineScheduler
    private let delay: Double
    private let pending = Atomic<Bool>(false)
    private let trims = Atomic<Int>(0)

    /// - Parameters:
    ///   - scheduler: where the trim runs.
    ///   - delay: seconds after the first close that asks for it.
    public init(scheduler: DeadlineScheduler, delay: Double = 2) {
        self.scheduler = scheduler
        self.delay = delay
    }

    /// A connection that may have held large buffers closed.
    public func connectionClosed() {
        guard !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        scheduler.schedule(after: delay) { [self] in
            pending.store(false, ordering: .releasing)
            _ = sb_return_free_memory()
            trims.add(1, ordering: .relaxed)
        }
    }

    /// How many trims ran (for tests and the curious).
    public var count: Int { trims.load(ordering: .relaxed) }
}
