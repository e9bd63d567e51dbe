internal import CMalloc
import Foundation
import Synchronization

/// Runs actions at deadlines on one thread, with one heap of deadlines for the
/// whole server — no timer per connection. The thread sleeps until the
/// earliest deadline; with nothing scheduled it sleeps until told otherwise.
///
/// Two kinds of entry: an action (a closure, run once), and a
/// ``DeadlineTarget`` (an object that keeps its own place in the heap, so it
/// is scheduled with no allocation and cancelled at once: a long poll that
/// answered is let go then, not at its deadline, and this thread is not
/// woken for it). See ``DeadlineHeap`` for what a cancellation leaves.
public final class DeadlineScheduler: @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`. `heap` is read and changed only under it (every
    // long poll cancels its entry: ARCHITECTURE, "Exclusivity checked where
    // it can fail"), so its run-time check could never see an overlap.
    @exclusivity(unchecked) private var heap = DeadlineHeap()
    private var stopped = false
    private var running = false
    private var thread: Thread?

    public init() {}

    /// Monotonic nanoseconds: `CLOCK_MONOTONIC`, the clock of
    /// `DispatchTime.now().uptimeNanoseconds` (libdispatch reads the same on
    /// Linux), read directly: through Dispatch it was 66 instructions, four
    /// times a long poll (callgrind).
    public static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// Starts the scheduler's thread.
    public func start() {
        let thread = Thread { [self] in
            _ = sb_name_this_thread("sb-deadlines")
            run()
        }
        condition.lock()
        self.thread = thread
        running = true
        condition.unlock()
        thread.start()
    }

    /// Runs `action` once, `seconds` from now.
    public func schedule(after seconds: Double, _ action: @escaping @Sendable () -> Void) {
        schedule(at: Self.now() + UInt64(max(0, seconds) * 1e9), action)
    }

    /// Runs `action` once at monotonic time `deadline` (see ``now()``).
    public func schedule(at deadline: UInt64, _ action: @escaping @Sendable () -> Void) {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped else { return }
        if heap.push(deadline: deadline, action: action, target: nil) { condition.signal() }
    }

    /// Calls `target`'s ``DeadlineTarget/deadlinePassed()`` once at monotonic
    /// time `deadline`, unless ``cancel(_:)`` comes first. The scheduler holds
    /// the target until then. A target already scheduled moves to `deadline`.
    public func schedule(at deadline: UInt64, _ target: any DeadlineTarget) {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped else { return }
        if heap.push(deadline: deadline, action: nil, target: target) { condition.signal() }
    }

    /// Cancels `target`'s deadline (it will not be called) and lets go of
    /// it, at once; nothing happens if it is not scheduled. Cheap on the
    /// caller's thread: what is left is a tombstone (``DeadlineHeap``) that
    /// this scheduler's thread clears. That thread is not woken: at worst it
    /// wakes once, at the deadline it was sleeping for.
    public func cancel(_ target: any DeadlineTarget) {
        condition.lock()
        defer { condition.unlock() }
        heap.cancel(target)
    }

    /// How many deadlines are scheduled and not cancelled (actions and targets).
    public var pending: Int {
        condition.lock()
        defer { condition.unlock() }
        return heap.live
    }

    /// Runs `action` every `seconds` until ``stop()``.
    public func repeating(every seconds: Double, _ action: @escaping @Sendable () -> Void) {
        schedule(after: seconds) { [weak self] in
            action()
            self?.repeating(every: seconds, action)
        }
    }

    /// Stops the thread; pending actions are dropped. Returns once an action
    /// that was already running has finished (unless called from one), so
    /// nothing scheduled runs after this returns.
    public func stop() {
        condition.lock()
        defer { condition.unlock() }
        stopped = true
        heap.removeAll()
        condition.broadcast()
        guard let thread, thread != Thread.current else { return }
        while running { condition.wait() }
    }

    private func run() {
        condition.lock()
        while !stopped {
            heap.dropTombstones()
            // Only the deadline: a copy of the entry would hold its target
            // while this thread sleeps, past a cancellation.
            guard let deadline = heap.first?.deadline else {
                condition.wait()
                continue
            }
            let now = Self.now()
            if deadline > now {
                let seconds = Double(deadline - now) / 1e9
                _ = condition.wait(until: Date(timeIntervalSinceNow: seconds))
                continue
            }
            let entry = heap.removeFirst()
            condition.unlock()
            entry.action?()
            entry.target?.deadlinePassed()
            condition.lock()
        }
        running = false
        condition.broadcast()
        condition.unlock()
    }
}
