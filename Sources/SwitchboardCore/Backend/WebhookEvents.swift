/// Which stored messages an application's backend hears of, and as what
/// (SPEC "An application's backend"): the log is the source of every event
/// but a user's presence, so events follow the log's order and a restart
/// loses none. Pure: no store, no clock.
public enum WebhookEvents {
    /// The event a message of the log makes, or nil for those a backend is
    /// not told of (joins, leaves, reactions, a rename).
    /// - `message.created`: a user's message or the admin's `system` message; `data` is the message.
    /// - `message.edited`, `message.deleted`: `data` is the act (`target` names the message).
    /// - `conversation.created`, `conversation.member_added`,
    ///   `conversation.member_removed` (removed, or left): `data` is
    ///   `{"room","by"}` with `user`, or `title`, `members` and `direct`.
    public static func of(_ message: Message) -> WebhookEvent? {
        let key = WebhookEvent.roomKey(message.room)
        switch message.kind {
        case .message:
            return WebhookEvent(type: "message.created", key: key, ts: message.ts, data: MessageJSON.encode(message), message: message.id)
        case .edit:
            return WebhookEvent(type: "message.edited", key: key, ts: message.ts, data: MessageJSON.encode(message), message: message.target)
        case .delete:
            return WebhookEvent(type: "message.deleted", key: key, ts: message.ts, data: MessageJSON.encode(message), message: message.target)
        case .system:
            guard let event = message.event else {
                return WebhookEvent(type: "message.created", key: key, ts: message.ts, data: MessageJSON.encode(message))
            }
            return conversation(event, room: message.room, key: key, ts: message.ts)
        case .join, .leave, .reaction:
            return nil
        }
    }

    /// `user.online` or `user.offline` for `user`, at `ts`.
    public static func presence(user: String, online: Bool, ts: Int64) -> WebhookEvent {
        WebhookEvent(type: online ? "user.online" : "user.offline", key: "user:" + user.lowercased(), ts: ts,
                     data: MessageJSON.encode(["user": user]))
    }

    private static func conversation(_ event: ConversationEvent, room: String, key: String, ts: Int64) -> WebhookEvent? {
        let type: String
        switch event.type {
        case .created: type = "conversation.created"
        case .added: type = "conversation.member_added"
        case .removed, .left: type = "conversation.member_removed"
        case .renamed: return nil
        }
        let data = ConversationEventData(room: room, by: event.actor, user: event.type == .left ? event.actor : event.user,
                                         title: event.title, members: event.members, direct: event.direct)
        return WebhookEvent(type: type, key: key, ts: ts, data: MessageJSON.encode(data))
    }

    /// A conversation event's `data`.
    private struct ConversationEventData: Encodable {
        var room: String
        var by: String
        var user: String?
        var title: String?
        var members: [String]?
        var direct: Bool?
    }
}
