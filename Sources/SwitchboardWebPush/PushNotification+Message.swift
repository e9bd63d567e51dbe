import Crypto
import SwitchboardCore

extension PushNotification {
    /// The most characters of a message's text a notification carries.
    public static let textLimit = 200
    /// Seconds a push service may keep a notification for a browser that is away: one day.
    public static let timeToLive = 86_400

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
        self.init(payload: out, topic: Self.topic(for: message.room), ttl: Self.timeToLive)
    }

    /// The room's SHA-256 in base64url, cut to 32 characters: the same room, the same topic.
    public static func topic(for room: String) -> String {
        String(Base64URL.encode(SHA256.hash(data: Array(room.utf8))).prefix(32))
    }
}
