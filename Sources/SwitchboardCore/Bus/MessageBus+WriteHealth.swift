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

    /// Records a group commit's outcome: `failure` nil for a success. A
    /// stall (`--store-timeout`) and the shutdown are not the store refusing a write.
    func noteWrite(failure: SwitchboardError?) {
        if let failure, failure == .shuttingDown || failure == .storeTimedOut(seconds: gate.timeoutSeconds) { return }
        let failed = failure != nil
        guard lastCommitFailed.exchange(failed, ordering: .relaxed) != failed else { return }
        for observer in writeHealthObservers.withLock({ $0 }) { observer(failure) }
    }
}
