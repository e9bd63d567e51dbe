import Dispatch
import Synchronization

/// Something answered once, by its work or by its deadline (``StoreTicket``).
protocol Expiring: AnyObject, Sendable {
    /// Whether it has been answered (its deadline then does nothing).
    var isAnswered: Bool { get }
    /// The deadline: answers `store_unavailable` unless answered already; true when it did.
    func expire(_ error: SwitchboardError) -> Bool
}

/// The deadlines of everything waiting for the store, with one timer for
/// all of them rather than one per wait: every wait has the same timeout,
/// so deadlines come in the order they were added, and a FIFO holds them.
/// Adding one is a lock and an append (a publish pays no timer of its own);
/// the timer, armed only while something waits, fires at the oldest
/// deadline, expires what is due and arms itself for the next.
///
/// What was answered is let go by ``trimAnswered()``, called by the thread
/// that answered (the commit thread after each group, a gate thread after
/// its call), so that freeing the answered tickets and the completions
/// they hold is that thread's work, not the work of the thread that adds
/// (libmicrohttpd's loop, the busiest). An add trims only when the FIFO has
/// grown past ``addTrimsFrom`` with no one trimming.
final class ExpiryQueue: Sendable {
    private struct Waiting {
        let deadline: UInt64
        let item: any Expiring
    }

    private struct State {
        var waiting: [Waiting] = []
        var head = 0
        var armed = false
        /// An emptied buffer with its capacity, for ``trimAnswered()`` to reuse.
        var spare: [Waiting] = []

        /// Steps the head over the answered at the front.
        mutating func skipAnswered() {
            while head < waiting.count, waiting[head].item.isAnswered { head += 1 }
        }

        /// Drops, in place, what the head has passed once that is all of the
        /// buffer or most of a long one (the paths that hold the lock anyway).
        mutating func compact() {
            if head == waiting.count {
                waiting.removeAll(keepingCapacity: true)
                head = 0
            } else if head > 1024, head * 2 > waiting.count {
                waiting.removeFirst(head)
                head = 0
            }
        }
    }

    /// The FIFO's length from which an add trims it itself.
    static let addTrimsFrom = 4096

    let timeoutNanoseconds: UInt64
    private let error: SwitchboardError
    private let queue: DispatchQueue
    private let state = Mutex(State())
    private let expired = Atomic<Int>(0)
    /// Told at each firing that refused any (``onRefusals(_:)``).
    private let refusalObserver = Mutex<(@Sendable (Int) -> Void)?>(nil)

    init(timeoutSeconds: Double, queue: DispatchQueue) {
        timeoutNanoseconds = UInt64(timeoutSeconds * 1e9)
        error = .storeTimedOut(seconds: timeoutSeconds)
        self.queue = queue
    }

    /// How many were answered by their deadline.
    var expiredCount: Int { expired.load(ordering: .relaxed) }

    /// Calls `observer` (on the timer's queue) after each firing that
    /// refused something, with how many it refused: how ``StoreGate``
    /// hears that callers were refused.
    func onRefusals(_ observer: @escaping @Sendable (Int) -> Void) {
        refusalObserver.withLock { $0 = observer }
    }

    /// `item` is answered with `store_unavailable` once the timeout has passed, unless it was answered before.
    func add(_ item: any Expiring, now: UInt64 = DeadlineScheduler.now()) {
        let deadline = now + timeoutNanoseconds
        let arm = state.withLock { state -> Bool in
            if state.waiting.count >= Self.addTrimsFrom {
                // No one trimmed: what was answered leaves from the front here.
                state.skipAnswered()
                state.compact()
            }
            state.waiting.append(Waiting(deadline: deadline, item: item))
            defer { state.armed = true }
            return !state.armed
        }
        if arm { schedule(at: deadline) }
    }

    /// Lets go of the answered at the front, so the FIFO holds about what
    /// still waits. The tickets (and the completions they hold) are freed
    /// here, on the caller's thread, outside the lock; the emptied buffer
    /// is kept for the next trim.
    func trimAnswered() {
        var released = state.withLock { state -> [Waiting] in
            state.skipAnswered()
            guard state.head > 0 else { return [] }
            var kept: [Waiting] = []
            swap(&kept, &state.spare)
            kept.append(contentsOf: state.waiting[state.head...])
            swap(&kept, &state.waiting)
            state.head = 0
            return kept
        }
        guard released.capacity > 0 else { return }
        released.removeAll(keepingCapacity: true)
        state.withLock { state in
            if state.spare.capacity < released.capacity { swap(&state.spare, &released) }
        }
    }

    private func schedule(at deadline: UInt64) {
        queue.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: deadline)) { [weak self] in self?.fire() }
    }

    /// Expires what is due; arms the timer for the next deadline, if any.
    private func fire() {
        let now = DeadlineScheduler.now()
        let (due, next) = state.withLock { state -> ([any Expiring], UInt64?) in
            var due: [any Expiring] = []
            while state.head < state.waiting.count, state.waiting[state.head].deadline <= now {
                due.append(state.waiting[state.head].item)
                state.head += 1
            }
            state.skipAnswered()
            state.compact()
            let next = state.head < state.waiting.count ? state.waiting[state.head].deadline : nil
            state.armed = next != nil
            return (due, next)
        }
        let count = due.reduce(0) { $0 + ($1.expire(error) ? 1 : 0) }
        if count > 0 {
            expired.add(count, ordering: .relaxed)
            refusalObserver.withLock { $0 }?(count)
        }
        if let next { schedule(at: next) }
    }
}
