/// Whether the store takes the group commit's writes, told when it changes:
/// a full disk or a database gone read-only fails every publish with 503
/// `store_unavailable` until a write succeeds again, and the operator
/// should hear of it once, not once a publish.
extension MessageBus {
    /// Calls `observer` (on the thread that wrote: the commit thread, or a
    /// gate thread for `/healthz`'s probe) each time the store's writes
    /// change: with the error when a commit fails after the last succeeded,
    /// with nil when one succeeds after a failure. Called under a lock: it
    /// must not call back into the bus's write health.
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

    /// Records a write's outcome (a group commit's, or `/healthz`'s durable
    /// probe's, on another thread): `failure` nil for a success. A stall
    /// (`--store-timeout`) and the shutdown are not the store refusing a write.
    ///
    /// A change is made and told under the observers' lock: told after it,
    /// a probe's success beside a commit's refusal (a disk at the edge of
    /// full) could log "takes writes again" after the refusal, the last word
    /// while writes fail. A success while none failed, the commit's common
    /// case, is one relaxed load.
    func noteWrite(failure: SwitchboardError?) {
        if let failure, failure == .shuttingDown || failure == .storeTimedOut(seconds: gate.timeoutSeconds) { return }
        let failed = failure != nil
        if failed { lastRefusal.store(DeadlineScheduler.now(), ordering: .relaxed) }
        if !failed, !lastCommitFailed.load(ordering: .relaxed) { return }
        writeHealthObservers.withLock { observers in
            guard lastCommitFailed.exchange(failed, ordering: .relaxed) != failed else { return }
            for observer in observers { observer(failure) }
        }
    }
}
