/// What Web Push has done since start, for the admin's stats and `/metrics`:
/// notifications waiting in the queue (as last read, every node's on a
/// shared store), accepted by a push service, dropped with their
/// subscription (404, 410), and given up.
public struct PushFigures: Sendable, Equatable, Encodable {
    public var pending: Int
    public var sent: Int
    public var gone: Int
    public var failed: Int

    public init(pending: Int = 0, sent: Int = 0, gone: Int = 0, failed: Int = 0) {
        self.pending = pending
        self.sent = sent
        self.gone = gone
        self.failed = failed
    }
}
