import Synchronization

/// Tells ``StoreGate``'s observers of a stall once when it begins and once
/// when it ends, from the events that already happen (a deadline that
/// refused callers, a store call that answered): no timer of its own, so
/// an idle server does nothing for it. Between the two, nothing more is
/// said, however many callers are refused. Each is told under the lock
/// that decides it (the deadlines' queue begins a stall, an answering
/// thread ends it): told after it, an end could be logged before its beginning.
final class StoreStallReport: Sendable {
    private struct State {
        var observers: [@Sendable (StoreStall) -> Void] = []
        /// When the stall said to have begun began to be unanswered (0: none said).
        var since: UInt64 = 0
        /// Callers refused at their deadline before it (``StoreGate/timedOutCount``).
        var refusedBefore = 0
    }

    private let state = Mutex(State())
    /// Whether a stall has been said to begin and not to end: the one
    /// load an answering store call pays while none has.
    private let said = Atomic<Bool>(false)

    var isSaid: Bool { said.load(ordering: .relaxed) }

    func observe(_ observer: @escaping @Sendable (StoreStall) -> Void) {
        state.withLock { $0.observers.append(observer) }
    }

    /// Callers were just refused at their deadline. It is a stall, not a
    /// queue, when a store call has gone unanswered for at least half the
    /// timeout: a caller's wait begins a little before the call it waits
    /// for, so the whole timeout would miss a stall by microseconds, and a
    /// store that answers all along has no call that old. `refused` counts
    /// every refusal so far, these among them; `count` these.
    func refused(unanswered: UInt64?, timeout: UInt64, now: UInt64, refused: Int, count: Int) {
        guard let unanswered, unanswered >= timeout / 2 else { return }
        state.withLock { state in
            guard state.since == 0 else { return }
            state.since = now - unanswered
            state.refusedBefore = refused - count
            said.store(true, ordering: .relaxed)
            for observer in state.observers { observer(.began(unansweredSeconds: Double(unanswered) / 1e9)) }
        }
    }

    /// A store call answered; `stillStalled` whether another has still
    /// gone unanswered past the timeout (``StoreGate/isStalled(now:)``).
    func answered(stillStalled: Bool, now: UInt64, refused: Int) {
        guard !stillStalled else { return }
        state.withLock { state in
            guard state.since != 0 else { return }
            let news = StoreStall.ended(seconds: Double(now - min(now, state.since)) / 1e9, refused: refused - state.refusedBefore)
            state.since = 0
            said.store(false, ordering: .relaxed)
            for observer in state.observers { observer(news) }
        }
    }
}
