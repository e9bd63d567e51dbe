/// What the reader is asked for: the named members of a WebSocket frame or
/// a form-like body, and a publish body's fields.
extension ClientMessageJSON {
    /// The members of `bytes` (a UTF-8 JSON object) named in `names`.
    public static func members(of bytes: [UInt8], named names: Set<String>) throws(Refusal) -> [String: JSONValue] {
        var found: [String: JSONValue] = [:]
        var reader = ClientMessageJSON(bytes: bytes)
        try reader.object(wanting: { names.contains($0) }) { key, value in found[key] = value }
        return found
    }

    /// An HTTP publish body's `user`, `text` (each a string, or null
    /// meaning absent) and `media` (an array of upload ids, or null).
    public static func publish(of bytes: [UInt8]) throws(Refusal) -> PublishFields {
        // On every publish: no set, no dictionary, a few comparisons a member.
        var user: JSONValue?, text: JSONValue?, media: JSONValue?
        var reader = ClientMessageJSON(bytes: bytes)
        try reader.object(wanting: { $0 == "user" || $0 == "text" || $0 == "media" }) { key, value in
            switch key {
            case "user": user = value
            case "text": text = value
            default: media = value
            }
        }
        return PublishFields(user: try user?.stringOrNull("user"), text: try text?.stringOrNull("text"),
                             media: try media?.stringsOrNull("media"))
    }
}
