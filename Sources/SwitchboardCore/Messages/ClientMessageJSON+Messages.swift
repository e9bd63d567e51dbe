/// What the reader is asked for: the named members of a WebSocket frame or
/// a form-like body, and a publish body's fields.
extension ClientMessageJSON {
    /// The members of `bytes` (a UTF-8 JSON object) named in `names`; one
    /// of them given twice is refused.
    public static func members(of bytes: [UInt8], named names: Set<String>) throws(Refusal) -> [String: JSONValue] {
        var found: [String: JSONValue] = [:]
        var reader = ClientMessageJSON(bytes: bytes)
        try reader.object(wanting: { names.contains($0) }) { key, value throws(Refusal) in try once(&found[key], value, key) }
        return found
    }

    /// An HTTP publish body's `user`, `text` (each a string, or null
    /// meaning absent), `media` (an array of upload ids, or null),
    /// `reply_to` (a message id) and `location` (an object): 400
    /// `malformed_json` for a body that is not such an object or gives one
    /// of these twice, 422 for a `reply_to` or `location` out of bounds.
    public static func publish(of bytes: [UInt8]) throws(SwitchboardError) -> PublishFields {
        // On every publish: no set, no dictionary, a few comparisons a member.
        var user: JSONValue?, text: JSONValue?, media: JSONValue?, replyTo: JSONValue?, location: JSONValue?, clientID: JSONValue?
        var reader = ClientMessageJSON(bytes: bytes)
        var fields: PublishFields
        do {
            try reader.object(wanting: {
                $0 == "user" || $0 == "text" || $0 == "media" || $0 == "reply_to" || $0 == "location" || $0 == "client_id"
            }, example: #"{"user":"luke","text":"hi"}"#) { key, value throws(Refusal) in
                switch key {
                case "user": try once(&user, value, key)
                case "text": try once(&text, value, key)
                case "media": try once(&media, value, key)
                case "reply_to": try once(&replyTo, value, key)
                case "location": try once(&location, value, key)
                default: try once(&clientID, value, key)
                }
            }
            fields = PublishFields(user: try user?.stringOrNull("user"), text: try text?.stringOrNull("text"),
                                   media: try media?.stringsOrNull("media"))
        } catch {
            throw .malformedJSON(error.reason)
        }
        try fields.read(replyTo: replyTo, location: location, clientID: clientID)
        return fields
    }
}
