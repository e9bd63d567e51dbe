import Synchronization

/// Writes that can fail and recover (an upload's bytes on a disk that fills
/// up), told to observers once each way: at the first failure after a
/// success (or the start), with why, and at the first success after a
/// failure, with nil. So the operator hears of a full disk once, not once
/// an upload, and hears when it is over.
public final class WriteHealthWatch: Sendable {
    /// Whether the last write failed. Its observers are told under the
    /// lock: uploads fail and succeed on several threads at once, and told
    /// outside it, "written again" could come before the failure it ends.
    private let state = Mutex<(failing: Bool, observers: [@Sendable (String?) -> Void])>((false, []))

    public init() {}

    /// Calls `observer` each time the writes change: with why when one fails
    /// after the last succeeded, with nil when one succeeds after a failure.
    /// It must not call back into this watch.
    public func observe(_ observer: @escaping @Sendable (String?) -> Void) {
        state.withLock { $0.observers.append(observer) }
    }

    /// Whether the last write failed.
    public var isFailing: Bool { state.withLock { $0.failing } }

    /// A write failed, for `why` (the operator's words: it may name a path).
    public func failed(_ why: String) { change(failing: true, why) }

    /// A write succeeded.
    public func succeeded() { change(failing: false, nil) }

    private func change(failing: Bool, _ why: String?) {
        state.withLock { state in
            guard state.failing != failing else { return }
            state.failing = failing
            for observer in state.observers { observer(why) }
        }
    }
}
