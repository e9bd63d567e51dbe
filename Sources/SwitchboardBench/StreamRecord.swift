import Synchronization

/// What one subscriber stream received: (id, monotonic receive time) pairs.
final class StreamRecord: Sendable {
    private let state = Mutex<(receipts: [(id: Int64, at: UInt64)], opened: Bool, ended: Bool, failed: String?)>(([], false, false, nil))

    func received(_ id: Int64, at time: UInt64) { state.withLock { $0.receipts.append((id, time)) } }
    func markOpened() { state.withLock { $0.opened = true } }
    func markEnded() { state.withLock { $0.ended = true } }
    func markFailed(_ reason: String) { state.withLock { $0.failed = reason } }

    var opened: Bool { state.withLock { $0.opened } }
    var failed: String? { state.withLock { $0.failed } }
    var receipts: [(id: Int64, at: UInt64)] { state.withLock { $0.receipts } }
    var count: Int { state.withLock { $0.receipts.count } }
}
