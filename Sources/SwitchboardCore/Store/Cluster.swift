/// The nodes sharing one store, as one of them sees the others. A server
/// on its own has none (nil wherever a cluster is taken).
///
/// Nothing here waits for the database: what is read comes from the last
/// snapshot the cluster's own thread took (on each heartbeat and each
/// notification), and what is sent goes in the background, so a thread
/// that serves connections may call any of it.
public protocol Cluster: Sendable {
    /// This node's name among them.
    var nodeID: String { get }
    /// Who is present on the other live nodes (this node's own presence is
    /// in ``Presence``), as last read.
    func presenceElsewhere() -> [ClusterPresence]
    /// Every live node, this one included, as last read.
    func nodes() -> [NodeStatus]
    /// Asks every other node to close `user`'s connections and end their
    /// leases (sent in the background; logged if the database is away).
    func kick(user: String)
    /// Tells every other node that accounts, bans or revocations changed in
    /// the store: they reload them and close what may no longer stay open
    /// (sent in the background).
    func accessChanged()
    /// Passes a notice (typing, a read receipt) to every other node's open
    /// streams; returns at once (sent in the background, lost if the database is away).
    func notice(_ notice: Notice)
}
