import Synchronization

/// What one subscriber received: (key, monotonic receive time) pairs, where
/// the key is a message id (SSE, polls) or a message index (raw TCP), plus
/// what it cost: bytes received (headers included), requests made, and
/// requests that brought nothing new.
public final class StreamRecord: Sendable {
    private let state = Mutex<(receipts: [(id: Int64, at: UInt64)], opened: Bool, ended: Bool, failed: String?)>(([], false, false, nil))
    private let cost = Mutex<(bytes: Int, requests: Int, empty: Int)>((0, 0, 0))

    public init() {}

    /// Counts bytes read off the wire.
    public func addBytes(_ count: Int) { cost.withLock { $0.bytes += count } }
    /// Counts a request; `empty` when its answer brought no message.
    public func addRequest(empty: Bool) { cost.withLock { $0.requests += 1; if empty { $0.empty += 1 } } }
    /// Bytes, requests and empty answers so far.
    public var costs: (bytes: Int, requests: Int, empty: Int) { cost.withLock { $0 } }

    public func received(_ id: Int64, at time: UInt64) { state.withLock { $0.receipts.append((id, time)) } }
    public func markOpened() { state.withLock { $0.opened = true } }
    public func markEnded() { state.withLock { $0.ended = true } }
    public func markFailed(_ reason: String) { state.withLock { $0.failed = reason } }

    public var opened: Bool { state.withLock { $0.opened } }
    public var failed: String? { state.withLock { $0.failed } }
    public var receipts: [(id: Int64, at: UInt64)] { state.withLock { $0.receipts } }
    public var count: Int { state.withLock { $0.receipts.count } }
}
