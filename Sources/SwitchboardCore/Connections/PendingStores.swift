/// One connection's publishes waiting for the store, and the back-pressure
/// rule every streaming transport (raw TCP, WebSocket) applies to them:
/// while `limit` or more wait, the connection's reads are held, so a client
/// that sends faster than its messages can be stored is read more slowly;
/// once half have drained, the held read goes through. Not thread-safe:
/// lives on the connection's event loop.
public struct PendingStores: Sendable {
    /// Most publishes waiting before reads are held.
    public let limit: Int
    /// Publishes handed to the store and not yet done.
    public private(set) var count = 0
    private var readHeld = false

    public init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// A publish was handed to the store.
    public mutating func submitted() {
        count += 1
    }

    /// The channel asks to read: false means hold the read until ``finished()`` says so.
    public mutating func mayRead() -> Bool {
        if count >= limit {
            readHeld = true
            return false
        }
        return true
    }

    /// A publish was stored (or refused): true when a held read should go through now.
    public mutating func finished() -> Bool {
        count -= 1
        guard readHeld, count <= limit / 2 else { return false }
        readHeld = false
        return true
    }
}
