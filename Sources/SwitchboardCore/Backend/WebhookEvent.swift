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

    public init(id: Int64 = 0, type: String, key: String, ts: Int64, data: [UInt8]) {
        self.id = id
        self.type = type
        self.key = key
        self.ts = ts
        self.data = data
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
