/// A user present in a room on another node.
public struct ClusterPresence: Sendable, Equatable {
    /// The room.
    public var room: String
    /// The user.
    public var user: String
    /// The transport of the connection that made them present on that node.
    public var transport: Transport?

    public init(room: String, user: String, transport: Transport?) {
        self.room = room
        self.user = user
        self.transport = transport
    }
}
