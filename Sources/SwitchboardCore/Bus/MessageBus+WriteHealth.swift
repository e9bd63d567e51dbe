/// Whether the store takes the group commit's writes (``MessageBus/writes``):
/// a full disk or a database gone read-only fails every publish with 503
/// `store_unavailable` until a write succeeds again, and the operator
/// should hear of it once, not once a publish.
extension MessageBus {
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
        let since = Int64(DeadlineScheduler.now()) - Int64(gate.timeoutSeconds * 1e9)
        guard !writes.hasFailed(after: since) else { return completion(StoreProbe.writesRefused) }
        storeProbe.durableHealth(within: seconds, written: { [weak self] in self?.noteWrite(failure: nil) }, completion: completion)
    }

    /// Records a write's outcome (a group commit's on the commit thread, or
    /// `/healthz`'s durable probe's on the gate): `failure` nil for a
    /// success. A stall (`--store-timeout`) and the shutdown are not the
    /// store refusing a write.
    func noteWrite(failure: SwitchboardError?) {
        guard let failure else { return writes.succeeded() }
        if failure == .shuttingDown || failure == .storeTimedOut(seconds: gate.timeoutSeconds) { return }
        writes.failed(failure.message, at: Int64(DeadlineScheduler.now()))
    }
}
