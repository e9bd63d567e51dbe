import SwitchboardCore

/// The named fields of a small request body, JSON (`{"user":..,"password":..}`)
/// or a form (`user=..&password=..`), as scalars: for the account endpoints.
/// Publishes have their own, faster reader (``PublishRequest``).
enum RequestFields {
    static func decode(_ names: Set<String>, contentType: String?, body: [UInt8]) throws(SwitchboardError) -> [String: JSONValue] {
        let mediaType = contentType.map(ContentType.essence(of:))
        let isJSON: Bool
        switch mediaType {
        case "application/json": isJSON = true
        case "application/x-www-form-urlencoded": isJSON = false
        case nil, "": isJSON = body.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) == UInt8(ascii: "{")
        default: throw .unsupportedMediaType
        }
        guard isJSON else {
            var fields: [String: JSONValue] = [:]
            for field in try FormURLEncoded.decode(body) where names.contains(field.name) { fields[field.name] = .string(field.value) }
            return fields
        }
        if body.isEmpty { return [:] }
        guard body.isValidUTF8 else { throw .invalidUTF8 }
        do {
            return try ClientMessageJSON.members(of: body, named: names)
        } catch {
            throw .malformedJSON(error.reason)
        }
    }

    /// A required string field.
    static func string(_ fields: [String: JSONValue], _ name: String) throws(SwitchboardError) -> String {
        guard case .string(let value)? = fields[name] else {
            throw SwitchboardError(.invalid, code: "missing_field", message: "Field '\(name)' (a string) is required.")
        }
        return value
    }
}
