/// A stored message, as every transport sees it.
///
/// `id` is assigned by the store: strictly increasing across the whole server,
/// never reused, surviving restarts. It is the only cursor a client needs.
///
/// A message read back from the store (or the ring) stands as it is now:
/// the acts on it (edits, an unsend, reactions, replies) are applied
/// (``MessageActs``). An act is itself a message, with a ``target``.
public struct Message: Sendable, Equatable {
    /// Server-wide, strictly increasing identifier.
    public var id: Int64
    /// The room it was said in.
    public var room: String
    /// Who said it (trimmed).
    public var user: String
    /// What was said (trailing CR/LF trimmed); empty once unsent.
    public var text: String
    /// What kind of message it is.
    public var kind: MessageKind
    /// Milliseconds since the Unix epoch, set by the server.
    public var ts: Int64
    /// For a conversation's `system` message: the membership change it records.
    public var event: ConversationEvent?
    /// The uploads it carries (photos, video, voice), in the order sent.
    public var media: [MediaAttachment]?
    /// The message of the same room this one answers (`reply_to`).
    public var replyTo: Int64?
    /// Who wrote the message a reply answers, for raw TCP's line
    /// (`luke (reply to leia):…`); kept with the reply, not in its JSON.
    public var replyToUser: String?
    /// For an act (`edit`, `delete`, `reaction`): the message it acts on.
    public var target: Int64?
    /// For a `reaction`: the emoji, and whether it was turned on or off.
    public var emoji: String?
    public var on: Bool?
    /// A place it shares.
    public var location: Location?
    /// The sender's own id for it (`client_id`), so it is stored once.
    public var clientID: String?
    /// Not stored now: a publish with a client id the store already had
    /// answered with the message stored then (never on the wire).
    public var replayed = false
    /// As it stands: when it was last edited (ms), whether it was unsent,
    /// who reacted with what, and how many replies it has.
    public var edited: Int64?
    public var deleted: Bool?
    public var reactions: Reactions?
    public var replies: Int?

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

    /// The draft at `draft` as stored (``MessageDraft/stored(id:timestamp:)``),
    /// each field read through its address and set once: a message made
    /// with the init above and its other fields set after was moved twice as
    /// a copy and a destroy, and a draft passed by value (a buffer's element,
    /// a pointer's `pointee`) is a copy of it (callgrind: the two, 870
    /// instructions of a publish's commit). The store reads its drafts so.
    @inline(__always) public init(storing draft: UnsafePointer<MessageDraft>, id: Int64, timestamp: Int64) {
        self.id = id
        room = draft.pointee.event?.type == .created ? ConversationRoom.name(createdBy: id) : draft.pointee.room
        user = draft.pointee.user
        text = draft.pointee.text
        kind = draft.pointee.kind
        ts = timestamp
        event = draft.pointee.event
        media = draft.pointee.media
        replyTo = draft.pointee.replyTo
        replyToUser = draft.pointee.replyToUser
        target = draft.pointee.target
        emoji = draft.pointee.emoji
        on = draft.pointee.on
        location = draft.pointee.location
        clientID = draft.pointee.clientID
    }

    /// Whether it was unsent.
    public var isDeleted: Bool { deleted == true }
}
