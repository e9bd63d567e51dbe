import SwitchboardCore

/// A conversation as the API answers it: `room`, `title`, `members`,
/// `direct`, `created_by`, and in a list also `muted`, `last`, `unread`;
/// for one conversation also `read`, each member's read marker.
struct ConversationJSON: Encodable {
    var room: String
    var title: String
    var members: [String]
    var direct: Bool
    var createdBy: String
    var muted: Bool?
    var last: Message?
    var unread: Int?
    var read: [String: Int64]?

    enum CodingKeys: String, CodingKey {
        case room, title, members, direct, muted, last, unread, read
        case createdBy = "created_by"
    }

    init(_ conversation: Conversation) {
        room = conversation.room
        title = conversation.title
        members = conversation.members
        direct = conversation.direct
        createdBy = conversation.createdBy
    }

    init(_ summary: ConversationSummary, read: [String: Int64]? = nil) {
        self.init(summary.conversation)
        muted = summary.muted
        last = summary.last
        unread = summary.unread
        self.read = read
    }

    /// The conversation a `created` event made in `room`.
    init(created event: ConversationEvent, room: String) {
        self.init(Conversation(room: room, title: event.title ?? "", direct: event.direct ?? false,
                               createdBy: event.actor, members: event.members ?? [event.actor]))
    }

    var bytes: [UInt8] { MessageJSON.encode(self) }
}
