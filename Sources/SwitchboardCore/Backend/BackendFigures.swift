/// What the server has told and asked an application's backend since start,
/// for the admin's stats and `/metrics`: webhook events waiting (as last
/// read, every node's on a shared store), delivered, retried, given up, and
/// dropped (presence past the backlog's bound); the publish hook's verdicts
/// and failures.
public struct BackendFigures: Sendable, Equatable, Encodable {
    /// Whether this node holds the webhook lease (on a shared database, one node delivers).
    public var delivering = false
    public var pending: Int = 0
    public var delivered: Int = 0
    public var retried: Int = 0
    public var failed: Int = 0
    public var dropped: Int = 0
    public var allowed: Int = 0
    public var denied: Int = 0
    public var modified: Int = 0
    public var hookFailed: Int = 0

    public init() {}

    enum CodingKeys: String, CodingKey {
        case delivering, pending, delivered, retried, failed, dropped, allowed, denied, modified
        case hookFailed = "hook_failed"
    }
}
