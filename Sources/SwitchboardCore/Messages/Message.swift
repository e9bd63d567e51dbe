/// A stored message, as every transport sees it.
///
/// `id` is assigned by the store: strictly increasing across the whole server,
/// never reused, surviving restarts. It is the only cursor a client needs.
public struct Message: Codable, Sendable, Equatable {
    /// Server-wide, strictly increasing identifier.
    public var id: Int64
    /// The room it was said in.
    public var room: String
    /// Who said it (trimmed).
    public var user: String
    /// What was said (trailing CR/LF trimmed).
    public var text: String
    /// What kind of message it is.
    public var kind: MessageKind
    /// Milliseconds since the Unix epoch, set by the server.
    public var ts: Int64
    /// For a conversation's `system` message: the membership change it records.
    public var event: ConversationEvent?
    /// The uploads it carries (photos, video, voice), in the order sent.
    public var media: [MediaAttachment]?

    public init(id: Int64, room: String, user: String, text: String, kind: MessageKind, ts: Int64,
                event: ConversationEvent? = nil, media: [MediaAttachment]? = nil) {
        self.id = id
        self.room = room
        self.user = user
        self.text = text
        self.kind = kind
        self.ts = ts
        self.event = event
        self.media = media
    }
}
