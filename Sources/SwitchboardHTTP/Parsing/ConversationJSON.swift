import SwitchboardCore

/// A conversation as the API answers it: `room`, `title`, `members`,
/// `direct`, `created_by`, and in a list also `muted`, `last`, `unread`;
/// for one conversation also `read`, each member's read marker.
///
/// Written by hand (``bytes``), keys in the order the shared encoder sorts
/// them and `last` as every message is written: Foundation's encoder was
/// half of a list of 30 conversations (2.7 million instructions). Its
/// `Encodable` is the reference the tests hold ``bytes`` to.
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

    var bytes: [UInt8] {
        var out: [UInt8] = []
        append(to: &out)
        return out
    }

    /// Appends this conversation's JSON object to `out`.
    func append(to out: inout [UInt8]) {
        out.append(contentsOf: #"{"created_by":"#.utf8)
        MessageJSON.appendString(createdBy, to: &out)
        out.append(contentsOf: direct ? #","direct":true"#.utf8 : #","direct":false"#.utf8)
        if let last {
            out.append(contentsOf: #","last":"#.utf8)
            out.append(contentsOf: MessageJSON.encode(last))
        }
        out.append(contentsOf: #","members":["#.utf8)
        for (index, member) in members.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            MessageJSON.appendString(member, to: &out)
        }
        out.append(UInt8(ascii: "]"))
        if let muted { out.append(contentsOf: muted ? #","muted":true"#.utf8 : #","muted":false"#.utf8) }
        if let read {
            out.append(contentsOf: #","read":{"#.utf8)
            for (index, user) in read.keys.sorted().enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                MessageJSON.appendString(user, to: &out)
                out.append(UInt8(ascii: ":"))
                out.appendDecimal(read[user]!)
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: #","room":"#.utf8)
        MessageJSON.appendString(room, to: &out)
        out.append(contentsOf: #","title":"#.utf8)
        MessageJSON.appendString(title, to: &out)
        if let unread {
            out.append(contentsOf: #","unread":"#.utf8)
            out.appendDecimal(Int64(unread))
        }
        out.append(UInt8(ascii: "}"))
    }

    /// `{"conversations":[...],"unread":N,"prev":"LAST:ROOM"}`: a page of a
    /// member's list; `prev` (the next page's `before`) only when one follows.
    static func list(_ page: ConversationPage, unread: Int) -> [UInt8] {
        var out: [UInt8] = Array(#"{"conversations":["#.utf8)
        for (index, summary) in page.summaries.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            ConversationJSON(summary).append(to: &out)
        }
        out.append(contentsOf: #"],"unread":"#.utf8)
        out.appendDecimal(Int64(unread))
        if let next = page.next {
            out.append(contentsOf: #","prev":"#.utf8)
            MessageJSON.appendString(next.text, to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }
}
