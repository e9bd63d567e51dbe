import Foundation

/// How the stores keep what replies and acts add to a message, beside its
/// columns: `reply_to` and `target` are columns of their own (indexed);
/// the rest is two small JSON texts, null for a plain message.
/// - ``detail``: an act's or message's own fields, `{"replyToUser","emoji","on","location"}`.
/// - ``standing``: what acts made of it, `{"edited","deleted","reactions","replies"}`
///   (PostgreSQL's commit changes this one in SQL, as `jsonb`).
public enum StoredActFields {
    private struct Detail: Codable {
        var replyToUser: String?
        var emoji: String?
        var on: Bool?
        var location: Location?
    }

    private struct Standing: Codable {
        var edited: Int64?
        var deleted: Bool?
        var reactions: [String: [String]]?
        var replies: Int?
    }

    /// `message`'s detail JSON, or nil when it has none.
    public static func detail(of message: Message) -> String? {
        guard message.emoji != nil || message.on != nil || message.location != nil || message.replyToUser != nil else { return nil }
        return text(Detail(replyToUser: message.replyToUser, emoji: message.emoji, on: message.on, location: message.location))
    }

    /// A draft's detail JSON, or nil when it has none.
    public static func detail(of draft: MessageDraft) -> String? {
        guard draft.emoji != nil || draft.on != nil || draft.location != nil || draft.replyToUser != nil else { return nil }
        return text(Detail(replyToUser: draft.replyToUser, emoji: draft.emoji, on: draft.on, location: draft.location))
    }

    /// `message`'s standing JSON, or nil when no act changed it.
    public static func standing(of message: Message) -> String? {
        guard message.edited != nil || message.deleted != nil || message.reactions != nil || message.replies != nil else { return nil }
        return text(Standing(edited: message.edited, deleted: message.deleted, reactions: message.reactions?.byEmoji,
                             replies: message.replies))
    }

    /// `message` with the columns' values read back.
    public static func restore(_ message: inout Message, replyTo: Int64?, target: Int64?, detail: String?, standing: String?) {
        message.replyTo = replyTo
        message.target = target
        if let detail, let read = try? JSONDecoder().decode(Detail.self, from: Data(detail.utf8)) {
            (message.emoji, message.on, message.location) = (read.emoji, read.on, read.location)
            message.replyToUser = read.replyToUser
        }
        if let standing, let read = try? JSONDecoder().decode(Standing.self, from: Data(standing.utf8)) {
            message.edited = read.edited
            message.deleted = read.deleted
            message.reactions = read.reactions.map(Reactions.init(byEmoji:)).flatMap { $0.isEmpty ? nil : $0 }
            message.replies = read.replies
        }
    }

    private static func text(_ value: some Encodable) -> String {
        String(decoding: MessageJSON.encode(value), as: UTF8.self)
    }
}
