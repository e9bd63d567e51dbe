/// A JSON scalar as a client sent it: a string (unescaped), a number (as
/// written, so that a `ref` is echoed back exactly), a boolean or null; an
/// object or array is only noted.
public enum JSONScalar: Equatable, Sendable {
    case string(String), number(String), bool(Bool), null, composite

    /// Its JSON text, to echo back (a composite echoes as null).
    public var json: [UInt8] {
        switch self {
        case .string(let value):
            var out: [UInt8] = []
            MessageJSON.appendString(value, to: &out)
            return out
        case .number(let text): return Array(text.utf8)
        case .bool(let value): return Array((value ? "true" : "false").utf8)
        case .null, .composite: return Array("null".utf8)
        }
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
