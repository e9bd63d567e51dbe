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

    /// `draft` as stored (``MessageDraft/stored(id:timestamp:)``), each field
    /// set once: a message made with the init above and its other fields set
    /// after was moved twice as a copy and a destroy, this way once (callgrind:
    /// 230 instructions of a publish's commit fewer).
    @inline(__always) init(stored draft: borrowing MessageDraft, id: Int64, timestamp: Int64) {
        self.id = id
        room = draft.event?.type == .created ? ConversationRoom.name(createdBy: id) : draft.room
        user = draft.user
        text = draft.text
        kind = draft.kind
        ts = timestamp
        event = draft.event
        media = draft.media
        replyTo = draft.replyTo
        replyToUser = draft.replyToUser
        target = draft.target
        emoji = draft.emoji
        on = draft.on
        location = draft.location
        clientID = draft.clientID
    }

    /// Whether it was unsent.
    public var isDeleted: Bool { deleted == true }
}
