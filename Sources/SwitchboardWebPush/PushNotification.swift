import Crypto
import SwitchboardCore

/// What one push says and how it is labelled (SPEC "Reaching people who
/// are away"): the payload a service worker shows, the `Topic` that lets a
/// newer notification of a room replace an older one, and its `TTL`.
public struct PushNotification: Sendable, Equatable {
    /// `{"room","id","user","text","title"}`, the text cut to 200 characters.
    public let payload: [UInt8]
    /// At most 32 URL-safe characters derived from the room (RFC 8030 §5.4).
    public let topic: String
    /// Seconds a push service may keep it for a browser that is away: one day.
    public let ttl: Int

    /// The most characters of a message's text a notification carries.
    public static let textLimit = 200

    /// The notification of `message` in `conversation`. A direct
    /// conversation has no title: it is named after the sender.
    public init(message: Message, conversation: Conversation) {
        var out: [UInt8] = Array(#"{"room":"#.utf8)
        MessageJSON.appendString(message.room, to: &out)
        out += Array(#","id":\#(message.id),"user":"#.utf8)
        MessageJSON.appendString(message.user, to: &out)
        out += Array(#","text":"#.utf8)
        MessageJSON.appendString(String(message.text.prefix(Self.textLimit)), to: &out)
        out += Array(#","title":"#.utf8)
        MessageJSON.appendString(conversation.title.isEmpty ? message.user : conversation.title, to: &out)
        out.append(UInt8(ascii: "}"))
        payload = out
        topic = Self.topic(for: message.room)
        ttl = 86_400
    }

    /// The room's SHA-256 in base64url, cut to 32 characters: the same room, the same topic.
    public static func topic(for room: String) -> String {
        String(Base64URL.encode(SHA256.hash(data: Array(room.utf8))).prefix(32))
    }
}
