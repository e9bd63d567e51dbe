import Foundation

/// A message's JSON as clients read it (``MessageJSON`` writes the same
/// shape by hand on the hot path): `reply_to` in snake case, `reactions` as
/// an object, no `text` once unsent.
extension Message: Codable {
    enum CodingKeys: String, CodingKey {
        case id, room, user, text, kind, ts, event, media
        case replyTo = "reply_to"
        case target, emoji, on, location, edited, deleted, reactions, replies
        case clientID = "client_id"
    }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        self.init(id: try values.decode(Int64.self, forKey: .id), room: try values.decode(String.self, forKey: .room),
                  user: try values.decode(String.self, forKey: .user),
                  text: try values.decodeIfPresent(String.self, forKey: .text) ?? "",
                  kind: try values.decode(MessageKind.self, forKey: .kind), ts: try values.decode(Int64.self, forKey: .ts),
                  event: try values.decodeIfPresent(ConversationEvent.self, forKey: .event),
                  media: try values.decodeIfPresent([MediaAttachment].self, forKey: .media))
        clientID = try values.decodeIfPresent(String.self, forKey: .clientID)
        replyTo = try values.decodeIfPresent(Int64.self, forKey: .replyTo)
        target = try values.decodeIfPresent(Int64.self, forKey: .target)
        emoji = try values.decodeIfPresent(String.self, forKey: .emoji)
        on = try values.decodeIfPresent(Bool.self, forKey: .on)
        location = try values.decodeIfPresent(Location.self, forKey: .location)
        edited = try values.decodeIfPresent(Int64.self, forKey: .edited)
        deleted = try values.decodeIfPresent(Bool.self, forKey: .deleted)
        reactions = try values.decodeIfPresent([String: [String]].self, forKey: .reactions).map(Reactions.init(byEmoji:))
        replies = try values.decodeIfPresent(Int.self, forKey: .replies)
    }

    public func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(id, forKey: .id)
        try values.encode(room, forKey: .room)
        try values.encode(user, forKey: .user)
        if !isDeleted { try values.encode(text, forKey: .text) }
        try values.encode(kind, forKey: .kind)
        try values.encode(ts, forKey: .ts)
        try values.encodeIfPresent(event, forKey: .event)
        try values.encodeIfPresent(media, forKey: .media)
        if !isDeleted { try values.encodeIfPresent(clientID, forKey: .clientID) }
        try values.encodeIfPresent(replyTo, forKey: .replyTo)
        try values.encodeIfPresent(target, forKey: .target)
        try values.encodeIfPresent(emoji, forKey: .emoji)
        try values.encodeIfPresent(on, forKey: .on)
        try values.encodeIfPresent(location, forKey: .location)
        try values.encodeIfPresent(edited, forKey: .edited)
        try values.encodeIfPresent(deleted, forKey: .deleted)
        try values.encodeIfPresent(reactions?.byEmoji, forKey: .reactions)
        try values.encodeIfPresent(replies, forKey: .replies)
    }
}
