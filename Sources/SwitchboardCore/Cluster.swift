/// The nodes sharing one store, as one of them sees the others. A server
/// on its own has none (nil wherever a cluster is taken).
public protocol Cluster: Sendable {
    /// This node's name among them.
    var nodeID: String { get }
    /// Who is present on the other live nodes (this node's own presence is
    /// in ``Presence``).
    func presenceElsewhere() throws -> [ClusterPresence]
    /// Every live node, this one included.
    func nodes() throws -> [NodeStatus]
    /// Asks every other node to close `user`'s connections and end their leases.
    func kick(user: String) throws
    /// Tells every other node that accounts, bans or revocations changed in
    /// the store: they reload them and close what may no longer stay open.
    func accessChanged() throws
    /// Passes a notice (typing, a read receipt) to every other node's open
    /// streams; returns at once (sent in the background, lost if the database is away).
    func notice(_ notice: Notice)
}
