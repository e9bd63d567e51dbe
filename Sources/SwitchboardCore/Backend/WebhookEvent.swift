/// One thing that happened, as an application's backend is told it
/// (SPEC "An application's backend"): `{"id","type","ts","data"}`. Events
/// of one ``key`` (a room, or a user's presence) are delivered in id order.
public struct WebhookEvent: Sendable, Equatable {
    /// The event's own id, the same on every retry and to every receiver
    /// (0 until the store gives it one).
    public var id: Int64
    /// `message.created`, `conversation.member_added`, `user.online`, …
    public var type: String
    /// What orders it: the room (`room:NAME`) or the user (`user:NAME`).
    public var key: String
    /// When it happened, milliseconds since the Unix epoch.
    public var ts: Int64
    /// The event's `data`, a JSON object.
    public var data: [UInt8]
    /// The message it tells of (`message.created`: its own id; an edit or an
    /// unsend: its target), so that an unsend can take back the text of
    /// events still waiting (``WebhookStore``).
    public var message: Int64?

    public init(id: Int64 = 0, type: String, key: String, ts: Int64, data: [UInt8], message: Int64? = nil) {
        self.id = id
        self.type = type
        self.key = key
        self.ts = ts
        self.data = data
        self.message = message
    }

    /// The ``key`` of a room's events.
    public static func roomKey(_ room: String) -> String { roomKeyPrefix + room }
    private static let roomKeyPrefix = "room:"

    /// For a `message.deleted` event: the unsent message, and the `data` its
    /// `message.created` and `message.edited` events still waiting take
    /// instead of theirs (``WebhookStore/queueWebhooks(_:targets:cursor:node:now:)``):
    /// an unsent text is kept nowhere. Nil for any other event.
    public var unsend: (message: Int64, created: [UInt8], edited: [UInt8])? {
        guard type == "message.deleted", let message, key.hasPrefix(Self.roomKeyPrefix) else { return nil }
        var room: [UInt8] = []
        MessageJSON.appendString(String(key.dropFirst(Self.roomKeyPrefix.count)), to: &room)
        return (message,
                Array(#"{"id":\#(message),"room":"#.utf8) + room + Array(#","kind":"message","deleted":true}"#.utf8),
                Array(#"{"room":"#.utf8) + room + Array(#","kind":"edit","target":\#(message),"deleted":true}"#.utf8))
    }

    /// The body POSTed: `{"id":"…","type":"…","ts":…,"data":{…}}`. The id is
    /// a string, so a receiver keeps it as it came.
    public var body: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(data.count + type.utf8.count + 48)
        out.append(contentsOf: #"{"id":""#.utf8)
        out.append(contentsOf: String(id).utf8)
        out.append(contentsOf: #"","type":"#.utf8)
        MessageJSON.appendString(type, to: &out)
        out.append(contentsOf: #","ts":"#.utf8)
        out.append(contentsOf: String(ts).utf8)
        out.append(contentsOf: #","data":"#.utf8)
        out.append(contentsOf: data)
        out.append(UInt8(ascii: "}"))
        return out
    }
}
