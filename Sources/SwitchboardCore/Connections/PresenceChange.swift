/// A user appearing in or leaving a room, to be published as `join`/`leave`.
public struct PresenceChange: Equatable, Sendable {
    /// The room.
    public var room: String
    /// The user.
    public var user: String
    /// `join` or `leave`.
    public var kind: MessageKind
    /// The transport of the connection (or lease) that made the change.
    public var transport: Transport?

    public init(room: String, user: String, kind: MessageKind, transport: Transport? = nil) {
        self.room = room
        self.user = user
        self.kind = kind
        self.transport = transport
    }

    /// The message that announces it (`NAME has joined` / `NAME has left` on TCP).
    public var draft: MessageDraft {
        MessageDraft(room: room, user: user, text: kind == .join ? "\(user) has joined" : "\(user) has left", kind: kind,
                     transport: transport)
    }
}
