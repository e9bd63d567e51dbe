/// A stalled store said once each way: the log tells an operator when
/// callers start being refused because the store does not answer, and when
/// it answers again, what `/healthz` shows only to whoever asks.
extension StoreGate {
    /// Calls `observer` when a stall begins (a caller refused at its
    /// deadline while a store call has gone unanswered for half the
    /// timeout or more; on the deadlines' queue) and when it ends (a store
    /// call answered and none is left unanswered past the timeout; on the
    /// thread that answered). Nothing is said between the two. Called under
    /// a lock: it must not call back into the gate.
    public func observeStalls(_ observer: @escaping @Sendable (StoreStall) -> Void) {
        stalls.observe(observer)
    }

    /// Callers were refused at their deadline (`count` of them).
    func refused(_ count: Int) {
        let now = DeadlineScheduler.now()
        stalls.refused(unanswered: unanswered(now: now), timeout: UInt64(timeoutSeconds * 1e9), now: now,
                       refused: timedOutCount, count: count)
    }

    /// A store call answered: ends the stall said to have begun, if none is
    /// left unanswered past the timeout and, when the group commit's last
    /// call gave no answer, if this one wrote (a commit, `/healthz`'s probe):
    /// an SQLite file locked by another process still answers reads, and
    /// they said the stall ended and began again every few seconds.
    func answered(byAWrite: Bool = false) {
        if commitUnanswered.load(ordering: .relaxed) {
            guard byAWrite else { return }
            commitUnanswered.store(false, ordering: .relaxed)
        }
        guard stalls.isSaid else { return }
        let now = DeadlineScheduler.now()
        stalls.answered(stillStalled: isStalled(now: now), now: now, refused: timedOutCount)
    }
}
