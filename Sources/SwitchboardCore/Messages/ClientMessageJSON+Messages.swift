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

    /// The names of a publish body's members, compared where they lie
    /// (``object(among:example:_:)``); their places are ``publish(of:)``'s cases.
    private static let publishNames: [StaticString] = ["user", "text", "media", "reply_to", "location", "client_id"]

    /// An HTTP publish body's `user`, `text` (each a string, or null
    /// meaning absent), `media` (an array of upload ids, or null),
    /// `reply_to` (a message id) and `location` (an object): 400
    /// `malformed_json` for a body that is not such an object or gives one
    /// of these twice, 422 for a `reply_to` or `location` out of bounds.
    public static func publish(of bytes: [UInt8]) throws(SwitchboardError) -> PublishFields {
        // On every publish: no set, no dictionary, no string made of a name.
        var user: JSONValue?, text: JSONValue?, media: JSONValue?, replyTo: JSONValue?, location: JSONValue?, clientID: JSONValue?
        var reader = ClientMessageJSON(bytes: bytes)
        var fields: PublishFields
        do {
            try reader.object(among: publishNames, example: #"{"user":"luke","text":"hi"}"#) { place, value throws(Refusal) in
                switch place {  // the places in `publishNames`
                case 0: try once(&user, value, "user")
                case 1: try once(&text, value, "text")
                case 2: try once(&media, value, "media")
                case 3: try once(&replyTo, value, "reply_to")
                case 4: try once(&location, value, "location")
                default: try once(&clientID, value, "client_id")
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
