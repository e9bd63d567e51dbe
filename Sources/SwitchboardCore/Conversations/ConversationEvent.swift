/// What a `system` message of a conversation records: who created it,
/// renamed it, added or removed whom, or left. Stored with the message (so
/// every node, and every reader of the history, sees the same change in the
/// same place), and applied to the conversation's membership in the same
/// transaction as the message is stored.
public struct ConversationEvent: Codable, Sendable, Equatable {
    /// What happened.
    public enum Kind: String, Codable, Sendable {
        case created, renamed, added, removed, left
    }

    /// What happened.
    public var type: Kind
    /// Who did it.
    public var actor: String
    /// Whom it was done to (`added`, `removed`), or who left.
    public var user: String?
    /// The title it was given (`created`, `renamed`).
    public var title: String?
    /// Every member at creation, the creator first (`created` only).
    public var members: [String]?
    /// Whether it is a direct conversation of two (`created` only).
    public var direct: Bool?

    public init(type: Kind, actor: String, user: String? = nil, title: String? = nil,
                members: [String]? = nil, direct: Bool? = nil) {
        self.type = type
        self.actor = actor
        self.user = user
        self.title = title
        self.members = members
        self.direct = direct
    }

    /// The readable line shown beside it (`text`), e.g. "luke added chewie".
    public var text: String {
        switch type {
        case .created:
            let others = (members ?? []).filter { $0 != actor }
            if direct == true { return "\(actor) started a conversation with \(others.joined(separator: ", "))" }
            return "\(actor) created “\(title ?? "")” with \(others.joined(separator: ", "))"
        case .renamed: return "\(actor) renamed the conversation “\(title ?? "")”"
        case .added: return "\(actor) added \(user ?? "")"
        case .removed: return "\(actor) removed \(user ?? "")"
        case .left: return "\(actor) left"
        }
    }

    /// The draft that stores it in `room` (ignored for `created`: the store names the room).
    public func draft(room: String) -> MessageDraft {
        var draft = MessageDraft(room: room, user: MessageLimits.systemUser, text: text, kind: .system)
        draft.event = self
        return draft
    }
}
