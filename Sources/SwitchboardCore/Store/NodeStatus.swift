/// One live node of a cluster, as it last reported itself.
public struct NodeStatus: Sendable, Encodable, Equatable {
    /// Its name (unique per process start).
    public var id: String
    /// Where it serves HTTP, as it reported.
    public var address: String
    /// Its open connections per transport at its last heartbeat.
    public var connections: [String: Int]
    /// Seconds until its lease runs out unless renewed.
    public var leaseSeconds: Double
    /// Whether it is the node answering.
    public var isSelf: Bool

    public init(id: String, address: String, connections: [String: Int], leaseSeconds: Double, isSelf: Bool) {
        self.id = id
        self.address = address
        self.connections = connections
        self.leaseSeconds = leaseSeconds
        self.isSelf = isSelf
    }

    enum CodingKeys: String, CodingKey {
        case id, address, connections
        case leaseSeconds = "lease_s"
        case isSelf = "self"
    }
}
