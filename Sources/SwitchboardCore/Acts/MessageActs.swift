/// What an act (an edit, an unsend, a reaction) or a reply makes of the
/// message it names: one pure function, applied by the SQLite store in the
/// act's commit, by the bus to the message in its ring, and by every node
/// to what it ingests, so every read shows the same. (PostgreSQL's commit
/// does the same in SQL: `switchboard_commit`.)
public enum MessageActs {
    /// Whether acts and replies may name `message`: a user's message, not unsent.
    public static func canBeTarget(_ message: Message) -> Bool {
        message.kind == .message && !message.isDeleted
    }

    /// The message `act` or a reply names, if any.
    public static func targetID(of message: Message) -> Int64? {
        message.kind.isAct ? message.target : (message.kind == .message ? message.replyTo : nil)
    }

    /// `target` as it stands after `act`; nil when `act` changes nothing
    /// (a reaction that already stood so, a target acts may not name, or an
    /// act that names another message): such an act is not stored.
    public static func apply(_ act: Message, to target: Message) -> Message? {
        guard canBeTarget(target), act.room == target.room else { return nil }
        var now = target
        if act.kind == .message {
            guard act.replyTo == target.id else { return nil }
            now.replies = (target.replies ?? 0) + 1
            return now
        }
        guard act.target == target.id else { return nil }
        switch act.kind {
        case .edit:
            now.text = act.text
            now.edited = act.ts
        case .delete:
            now = Message(id: target.id, room: target.room, user: target.user, text: "", kind: .message, ts: target.ts)
            now.deleted = true
            now.clientID = target.clientID  // kept (a retry must still find it), never shown
        case .reaction:
            guard let emoji = act.emoji else { return nil }
            var reactions = target.reactions ?? Reactions()
            guard reactions.set(emoji, by: act.user, on: act.on ?? true) else { return nil }
            now.reactions = reactions.isEmpty ? nil : reactions
        default:
            return nil
        }
        return now
    }

    /// An edit of a message since unsent: its text is gone too.
    public static func scrubbed(_ edit: Message) -> Message {
        var scrubbed = edit
        scrubbed.text = ""
        return scrubbed
    }
}
