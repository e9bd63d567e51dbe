internal import CMalloc
import Foundation
import Synchronization

/// Runs actions at deadlines on one thread, with one heap of deadlines for the
/// whole server — no timer per connection. The thread sleeps until the
/// earliest deadline; with nothing scheduled it sleeps until told otherwise.
public final class DeadlineScheduler: @unchecked Sendable {
    private struct Entry {
        var deadline: UInt64
        var sequence: UInt64
        var action: @Sendable () -> Void
    }

    private let condition = NSCondition()
    // Guarded by `condition`.
    private var heap: [Entry] = []
    private var sequence: UInt64 = 0
    private var stopped = false
    private var running = false
    private var thread: Thread?

    public init() {}

    /// Monotonic nanoseconds.
    public static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

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
        sequence += 1
        push(Entry(deadline: deadline, sequence: sequence, action: action))
        if heap[0].sequence == sequence { condition.signal() }
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
            guard let first = heap.first else {
                condition.wait()
                continue
            }
            let now = Self.now()
            if first.deadline > now {
                let seconds = Double(first.deadline - now) / 1e9
                _ = condition.wait(until: Date(timeIntervalSinceNow: seconds))
                continue
            }
            let entry = pop()
            condition.unlock()
            entry.action()
            condition.lock()
        }
        running = false
        condition.broadcast()
        condition.unlock()
    }

    private func precedes(_ a: Entry, _ b: Entry) -> Bool {
        (a.deadline, a.sequence) < (b.deadline, b.sequence)
    }

    private func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private func pop() -> Entry {
        let top = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < heap.count, precedes(heap[left], heap[smallest]) { smallest = left }
                if right < heap.count, precedes(heap[right], heap[smallest]) { smallest = right }
                if smallest == parent { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return top
    }
}
