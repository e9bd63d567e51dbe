import Synchronization

/// Writes that can fail and recover (an upload's bytes on a disk that fills
/// up), told to observers once each way: at the first failure after a
/// success (or the start), with why, and at the first success after a
/// failure, with nil. So the operator hears of a full disk once, not once
/// an upload, and hears when it is over.
public final class WriteHealthWatch: Sendable {
    private let failing = Atomic<Bool>(false)
    private let observers = Mutex<[@Sendable (String?) -> Void]>([])

    public init() {}

    /// Calls `observer` each time the writes change: with why when one fails
    /// after the last succeeded, with nil when one succeeds after a failure.
    public func observe(_ observer: @escaping @Sendable (String?) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    /// Whether the last write failed.
    public var isFailing: Bool { failing.load(ordering: .relaxed) }

    /// A write failed, for `why` (the operator's words: it may name a path).
    public func failed(_ why: String) {
        guard !failing.exchange(true, ordering: .relaxed) else { return }
        tell(why)
    }

    /// A write succeeded: one relaxed load while nothing is failing.
    public func succeeded() {
        guard failing.load(ordering: .relaxed), failing.exchange(false, ordering: .relaxed) else { return }
        tell(nil)
    }

    private func tell(_ why: String?) {
        for observer in observers.withLock({ $0 }) { observer(why) }
    }
}
