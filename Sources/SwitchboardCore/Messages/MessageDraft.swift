/// A validated message that has not been stored yet (no id, no timestamp).
public struct MessageDraft: Sendable, Equatable {
    /// A valid room name.
    public var room: String
    /// A valid user name (trimmed).
    public var user: String
    /// Valid text (trailing CR/LF trimmed).
    public var text: String
    /// The kind of message.
    public var kind: MessageKind
    /// For a `join` or `leave`: the transport of the connection that made
    /// the change. A shared store records it with the node's presence claim.
    public var transport: Transport?
    /// For a conversation's `system` message: the membership change the
    /// store applies in the same transaction (see ``ConversationEvent``).
    public var event: ConversationEvent?
    /// The uploads it carries, checked by ``MediaService`` (each the
    /// speaker's own); the store records them with the message.
    public var media: [MediaAttachment]?
    /// A reply's message (same room; checked by ``MessageActs``).
    public var replyTo: Int64?
    /// Who wrote that message (set when it is checked).
    public var replyToUser: String?
    /// An act's message (`edit`, `delete`, `reaction`).
    public var target: Int64?
    /// A reaction's emoji and whether it is turned on.
    public var emoji: String?
    public var on: Bool?
    /// A place it shares.
    public var location: Location?
    /// The sender's own id for it (``ClientID``): stored once per user.
    public var clientID: String?

    /// Validates raw input as a user's chat message.
    /// - Throws: ``SwitchboardError`` describing the first problem found.
    public init(room: String, user: String, text: String, limits: MessageLimits) throws(SwitchboardError) {
        self.room = try limits.validRoom(room)
        self.user = try limits.validUser(user)
        self.text = try limits.validText(text)
        self.kind = .message
    }

    /// A message the server itself writes (`join`, `leave`, `system`); trusted input.
    public init(room: String, user: String, text: String, kind: MessageKind, transport: Transport? = nil) {
        self.room = room
        self.user = user
        self.text = text
        self.kind = kind
        self.transport = transport
    }
}

extension MessageDraft {
    /// The message this draft became as stored with `id` at `timestamp`: a
    /// `created` event's room is named after the id.
    @inline(__always) public func stored(id: Int64, timestamp: Int64) -> Message {
        withUnsafePointer(to: self) { Message(storing: $0, id: id, timestamp: timestamp) }
    }
}
