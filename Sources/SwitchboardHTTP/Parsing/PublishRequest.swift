import SwitchboardCore

/// The body of `POST /api/rooms/{room}/messages`: JSON `{"user":..,"text":..,"media":[..],"reply_to":..,"location":{..}}`
/// or a form `user=..&text=..&media=..`, read into its fields (validated by
/// ``AccessControl/draft(_:room:user:text:limits:client:)``, as every
/// transport's publish is).
enum PublishRequest {
    /// Reads a publish body's `user` and `text` (each absent or a string).
    /// - Parameters:
    ///   - contentType: the request's `Content-Type` (nil when absent: then the
    ///     body is taken as JSON when it starts with `{`, else as a form).
    /// - Throws: ``SwitchboardError`` for every way the input can be unreadable.
    static func fields(contentType: String?, body: [UInt8]) throws(SwitchboardError) -> PublishFields {
        let mediaType = contentType.map(ContentType.essence(of:))
        switch mediaType {
        case "application/json":
            return try decodeJSON(body)
        case "application/x-www-form-urlencoded" where !startsAsJSON(body):
            return try decodeForm(body)
        // `curl -d '{...}'` says its body is a form: an object is read as the JSON it is.
        case nil, "", "application/x-www-form-urlencoded":
            return startsAsJSON(body) ? try decodeJSON(body) : try decodeForm(body)
        default:
            throw .unsupportedMediaType
        }
    }

    private static func startsAsJSON(_ body: [UInt8]) -> Bool {
        body.first(where: { !$0.isASCIIWhitespace }) == UInt8(ascii: "{")
    }

    private static func decodeJSON(_ body: [UInt8]) throws(SwitchboardError) -> PublishFields {
        guard body.isValidUTF8 else { throw .invalidUTF8 }
        return try ClientMessageJSON.publish(of: body)
    }

    private static func decodeForm(_ body: [UInt8]) throws(SwitchboardError) -> PublishFields {
        let fields = try FormURLEncoded.decode(body)
        let media = fields.filter { $0.name == "media" }.map(\.value)
        var publish = PublishFields(user: fields.first { $0.name == "user" }?.value, text: fields.first { $0.name == "text" }?.value,
                                    media: media.isEmpty ? nil : media)
        // A form's `reply_to` is the id's digits; its location is `lat`, `lon` and `accuracy` fields.
        let replyTo = fields.first { $0.name == "reply_to" }.map { JSONValue.number($0.value) }
        let place = fields.filter { ["lat", "lon", "accuracy"].contains($0.name) }
        let location = place.isEmpty ? nil : JSONValue.object(Dictionary(place.map { ($0.name, JSONValue.number($0.value)) },
                                                                          uniquingKeysWith: { first, _ in first }))
        let clientID = fields.first { $0.name == "client_id" }.map { JSONValue.string($0.value) }
        try publish.read(replyTo: replyTo, location: location, clientID: clientID)
        return publish
    }
}

private extension UInt8 {
    var isASCIIWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }
}
