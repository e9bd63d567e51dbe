/// Whether the store takes the group commit's writes, told when it changes:
/// a full disk or a database gone read-only fails every publish with 503
/// `store_unavailable` until a write succeeds again, and the operator
/// should hear of it once, not once a publish.
extension MessageBus {
    /// Calls `observer` (on the commit thread) each time the store's writes
    /// change: with the error when a commit fails after the last succeeded,
    /// with nil when one succeeds after a failure.
    public func observeWriteHealth(_ observer: @escaping @Sendable (SwitchboardError?) -> Void) {
        writeHealthObservers.withLock { $0.append(observer) }
    }

    /// `/healthz` while the last commit was refused. A refusal is believed
    /// for ``StoreGate/timeoutSeconds`` (refused: 503 at once); after that
    /// with none, a durable write on the gate
    /// (``StoreProbe/durableHealth(within:written:completion:)``), and one
    /// that succeeds counts as a write that succeeded. Without the write, a
    /// server whose disk was freed said 503 until someone published, and a
    /// load balancer that had taken it out for the 503 sent no one. Without
    /// the wait, a probe's small row could fit on a full disk where the
    /// publish just refused did not (SQLite reuses its log's pages), and
    /// `/healthz` said 200 beside a 503 (the soak saw it).
    public func checkWritesAgain(within seconds: Double, completion: @escaping @Sendable (SwitchboardError?) -> Void) {
        let now = DeadlineScheduler.now()
        guard Double(now - min(now, lastRefusal.load(ordering: .relaxed))) / 1e9 >= gate.timeoutSeconds else {
            return completion(StoreProbe.writesRefused)
        }
        storeProbe.durableHealth(within: seconds, written: { [weak self] in self?.noteWrite(failure: nil) }, completion: completion)
    }

    /// Records a group commit's outcome: `failure` nil for a success. A
    /// stall (`--store-timeout`) and the shutdown are not the store refusing a write.
    func noteWrite(failure: SwitchboardError?) {
        if let failure, failure == .shuttingDown || failure == .storeTimedOut(seconds: gate.timeoutSeconds) { return }
        let failed = failure != nil
        if failed { lastRefusal.store(DeadlineScheduler.now(), ordering: .relaxed) }
        guard lastCommitFailed.exchange(failed, ordering: .relaxed) != failed else { return }
        for observer in writeHealthObservers.withLock({ $0 }) { observer(failure) }
    }
}
