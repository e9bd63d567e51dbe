/// A member's value as a client sent it: a string (unescaped), a number (as
/// written, so that a `ref` is echoed back exactly), a boolean, null, or one
/// level of array or object of those (`media: ["ID"]`, `location: {"lat":..}`,
/// a PushSubscription's `keys`); anything nested deeper is only noted
/// (`composite`): no message field is shaped so.
public enum JSONValue: Equatable, Sendable {
    case string(String), number(String), bool(Bool), null
    case array([JSONValue])
    case object([String: JSONValue])
    /// An array or object inside an array or object: skipped, not read.
    case composite

    /// Its JSON text, to echo back (a composite echoes as null).
    public var json: [UInt8] {
        switch self {
        case .string(let value):
            var out: [UInt8] = []
            MessageJSON.appendString(value, to: &out)
            return out
        case .number(let text): return Array(text.utf8)
        case .bool(let value): return Array((value ? "true" : "false").utf8)
        case .null, .composite, .array, .object: return Array("null".utf8)
        }
    }

    /// Whether it is a string, number, boolean or null: what ``json`` gives back as it was sent.
    public var isScalar: Bool {
        switch self {
        case .string, .number, .bool, .null: true
        case .array, .object, .composite: false
        }
    }

    /// An array of strings, or nil for null; anything else is refused.
    public func stringsOrNull(_ name: String) throws(ClientMessageJSON.Refusal) -> [String]? {
        switch self {
        case .null: return nil
        case .array(let values):
            var strings: [String] = []
            for value in values {
                guard case .string(let string) = value else { throw ClientMessageJSON.Refusal(reason: "'\(name)' must be a list of strings") }
                strings.append(string)
            }
            return strings
        default: throw ClientMessageJSON.Refusal(reason: "'\(name)' must be a list of strings")
        }
    }

    /// An object's members, or nil for null; anything else is refused.
    public func objectOrNull(_ name: String) throws(ClientMessageJSON.Refusal) -> [String: JSONValue]? {
        switch self {
        case .null: return nil
        case .object(let members): return members
        default: throw ClientMessageJSON.Refusal(reason: "'\(name)' must be an object")
        }
    }

    /// The string, or nil when it is not one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The boolean, or nil when it is not one.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// A number's value (as a `Double`), or nil when it is not a number.
    public var doubleValue: Double? {
        if case .number(let text) = self { return Double(text) }
        return nil
    }

    /// The string, or nil for null; anything else is refused.
    func stringOrNull(_ name: String) throws(ClientMessageJSON.Refusal) -> String? {
        switch self {
        case .string(let value): return value
        case .null: return nil
        default: throw ClientMessageJSON.Refusal(reason: "'\(name)' must be a string")
        }
    }
}
