/// A membership change applied from a conversation event, for those who act
/// on it outside the bus's lock (the connections of a removed member).
public struct ConversationChange: Sendable, Equatable {
    /// The conversation's room.
    public var room: String
    /// The user it concerns.
    public var user: String
    /// Whether the user is a member from now on (false: removed or left).
    public var isMember: Bool

    public init(room: String, user: String, isMember: Bool) {
        self.room = room
        self.user = user
        self.isMember = isMember
    }
}
