import Synchronization

/// Writes that can fail and recover (the store's commits on a disk that
/// fills up, uploads' bytes on it), told to observers once each way: at the
/// first failure after a success (or the start), with why, and at the first
/// success after a failure, with nil. So the operator hears of a full disk
/// once, not once a write, and hears when it is over.
public final class WriteHealthWatch: Sendable {
    private struct State {
        /// When the last write failed (the caller's clock).
        var lastFailure: Int64 = 0
        var observers: [@Sendable (String?) -> Void] = []
    }

    /// A change is decided and told under this lock: writes fail and
    /// succeed on several threads at once (a commit's refusal beside
    /// `/healthz`'s probe, uploads on every worker), and told outside it,
    /// "written again" could come before the failure it ends, the last word
    /// while writes fail.
    private let state = Mutex(State())
    /// Whether the last write failed: changed under the lock, read without
    /// it, so that a success while none failed (every commit's) is one
    /// relaxed load.
    private let failing = Atomic<Bool>(false)

    public init() {}

    /// Calls `observer` each time the writes change: with why when one fails
    /// after the last succeeded, with nil when one succeeds after a failure.
    /// It must not call back into this watch.
    public func observe(_ observer: @escaping @Sendable (String?) -> Void) {
        state.withLock { $0.observers.append(observer) }
    }

    /// Whether the last write failed.
    public var isFailing: Bool { failing.load(ordering: .relaxed) }

    /// Whether a write failed later than `time` (the caller's clock): a
    /// probe of its own waits until none has for a while (a probe's small
    /// write can fit on a disk at the edge of full where the one just
    /// refused did not).
    public func hasFailed(after time: Int64) -> Bool {
        state.withLock { $0.lastFailure > time }
    }

    /// A write failed at `time` (the caller's clock), for `why` (the
    /// operator's words: it may name a path).
    public func failed(_ why: String, at time: Int64) {
        state.withLock { state in
            state.lastFailure = max(state.lastFailure, time)
            change(state, failing: true, why)
        }
    }

    /// A write succeeded.
    public func succeeded() {
        guard failing.load(ordering: .relaxed) else { return }
        state.withLock { change($0, failing: false, nil) }
    }

    private func change(_ state: State, failing: Bool, _ why: String?) {
        guard self.failing.exchange(failing, ordering: .relaxed) != failing else { return }
        for observer in state.observers { observer(why) }
    }
}
