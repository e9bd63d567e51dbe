/// How the stores keep what replies and acts add to a message, beside its
/// columns: `reply_to` and `target` are columns of their own (indexed);
/// the rest is two small JSON texts, null for a plain message, written and
/// read here by hand (Foundation's coders were most of a reply's cost).
/// - ``detail(of:)-(Message)``: a message's own fields, `{"reply_to_user","emoji","on","location"}`.
/// - ``standing(of:)``: what acts made of it, `{"edited","deleted","reactions","replies"}`
///   (PostgreSQL's commit changes this one in SQL, as `jsonb`).
public enum StoredActFields {
    /// `message`'s detail JSON, or nil when it has none.
    public static func detail(of message: Message) -> String? {
        detail(replyToUser: message.replyToUser, emoji: message.emoji, on: message.on, location: message.location)
    }

    /// A draft's detail JSON, or nil when it has none.
    public static func detail(of draft: MessageDraft) -> String? {
        withUnsafePointer(to: draft) { detail(of: $0) }
    }

    /// The detail JSON of the draft at `draft`, its fields read in place (the
    /// store's group of drafts: a draft passed by value is a copy of it).
    public static func detail(of draft: UnsafePointer<MessageDraft>) -> String? {
        detail(replyToUser: draft.pointee.replyToUser, emoji: draft.pointee.emoji, on: draft.pointee.on,
               location: draft.pointee.location)
    }

    private static func detail(replyToUser: String?, emoji: String?, on: Bool?, location: Location?) -> String? {
        guard replyToUser != nil || emoji != nil || on != nil || location != nil else { return nil }
        var out = Fields()
        if let replyToUser { out.string("reply_to_user", replyToUser) }
        if let emoji { out.string("emoji", emoji) }
        if let on { out.raw("on", on ? "true" : "false") }
        if let location {
            var place = "{\"lat\":\(Location.degrees(location.lat)),\"lon\":\(Location.degrees(location.lon))"
            if let accuracy = location.accuracy { place += ",\"accuracy\":\(Location.degrees(accuracy))" }
            out.raw("location", place + "}")
        }
        return out.text
    }

    /// `message`'s standing JSON, or nil when no act changed it.
    public static func standing(of message: Message) -> String? {
        guard message.edited != nil || message.deleted != nil || message.reactions != nil || message.replies != nil else { return nil }
        var out = Fields()
        if let edited = message.edited { out.raw("edited", String(edited)) }
        if let deleted = message.deleted { out.raw("deleted", deleted ? "true" : "false") }
        if let reactions = message.reactions { out.raw("reactions", String(decoding: reactions.json, as: UTF8.self)) }
        if let replies = message.replies { out.raw("replies", String(replies)) }
        return out.text
    }

    /// `message` with the columns' values read back (by the one JSON reader
    /// clients' messages are read with, three levels deep).
    public static func restore(_ message: inout Message, replyTo: Int64?, target: Int64?, detail: String?, standing: String?) {
        message.replyTo = replyTo
        message.target = target
        if let detail, case .object(let read)? = ClientMessageJSON.value(of: Array(detail.utf8), levels: 2) {
            message.replyToUser = read["reply_to_user"]?.stringValue
            message.emoji = read["emoji"]?.stringValue
            message.on = read["on"]?.boolValue
            if case .object(let place)? = read["location"], let lat = place["lat"]?.doubleValue, let lon = place["lon"]?.doubleValue {
                message.location = Location(lat: lat, lon: lon, accuracy: place["accuracy"]?.doubleValue)
            }
        }
        if let standing, case .object(let read)? = ClientMessageJSON.value(of: Array(standing.utf8), levels: 3) {
            message.edited = read["edited"]?.doubleValue.map { Int64($0) }
            message.deleted = read["deleted"]?.boolValue
            message.replies = read["replies"]?.doubleValue.map { Int($0) }
            if case .object(let byEmoji)? = read["reactions"] {
                let reactions = Reactions(byEmoji.map { emoji, users in
                    guard case .array(let list) = users else { return Reactions.Entry(emoji: emoji, users: []) }
                    return Reactions.Entry(emoji: emoji, users: list.compactMap(\.stringValue))
                })
                message.reactions = reactions.isEmpty ? nil : reactions
            }
        }
    }

    /// A JSON object written member by member.
    private struct Fields {
        private var out: [UInt8] = [UInt8(ascii: "{")]

        mutating func string(_ name: String, _ value: String) {
            key(name)
            MessageJSON.appendString(value, to: &out)
        }

        mutating func raw(_ name: String, _ json: String) {
            key(name)
            out.append(contentsOf: json.utf8)
        }

        private mutating func key(_ name: String) {
            if out.count > 1 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: "\"\(name)\":".utf8)
        }

        var text: String { String(decoding: out + [UInt8(ascii: "}")], as: UTF8.self) }
    }
}
