import Synchronization

/// Writes that can fail and recover (an upload's bytes on a disk that fills
/// up), told to observers once each way: at the first failure after a
/// success (or the start), with why, and at the first success after a
/// failure, with nil. So the operator hears of a full disk once, not once
/// an upload, and hears when it is over.
public final class WriteHealthWatch: Sendable {
    private struct State {
        var failing = false
        /// When the last write failed (the caller's clock).
        var lastFailure: Int64 = 0
        var observers: [@Sendable (String?) -> Void] = []
    }

    /// Observers are told under the lock: uploads fail and succeed on
    /// several threads at once, and told outside it, "written again" could
    /// come before the failure it ends.
    private let state = Mutex(State())

    public init() {}

    /// Calls `observer` each time the writes change: with why when one fails
    /// after the last succeeded, with nil when one succeeds after a failure.
    /// It must not call back into this watch.
    public func observe(_ observer: @escaping @Sendable (String?) -> Void) {
        state.withLock { $0.observers.append(observer) }
    }

    /// Whether the last write failed.
    public var isFailing: Bool { state.withLock { $0.failing } }

    /// Whether the last write failed, and no write has failed since `time`:
    /// when a probe of its own may tell whether writes work again (not at
    /// once: a probe's small file can fit on a disk at the edge of full
    /// where the upload just refused did not).
    public func isFailing(quietSince time: Int64) -> Bool {
        state.withLock { $0.failing && $0.lastFailure <= time }
    }

    /// A write failed at `time` (the caller's clock), for `why` (the
    /// operator's words: it may name a path).
    public func failed(_ why: String, at time: Int64 = 0) {
        state.withLock { state in
            state.lastFailure = max(state.lastFailure, time)
            change(&state, failing: true, why)
        }
    }

    /// A write succeeded.
    public func succeeded() {
        state.withLock { change(&$0, failing: false, nil) }
    }

    private func change(_ state: inout State, failing: Bool, _ why: String?) {
        guard state.failing != failing else { return }
        state.failing = failing
        for observer in state.observers { observer(why) }
    }
}
