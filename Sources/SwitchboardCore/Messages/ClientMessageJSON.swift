/// The one reader of a client's JSON message, on every transport that
/// takes JSON (an HTTP publish body, a WebSocket text frame): strict, over
/// the bytes, one well-formed object whose named members are read and every
/// other member skipped. Written for the publish path, where Foundation's
/// `JSONDecoder` was 6% of the server's time on 64 connections.
public struct ClientMessageJSON {
    /// Why a message was refused, for the `malformed_json` message.
    public struct Refusal: Error, Equatable {
        public var reason: String
    }

    // Internal, not private: the token readers are in ClientMessageJSON+Tokens.swift.
    let bytes: [UInt8]
    var index = 0
    /// Nesting deeper than this is refused rather than risk the stack.
    private static let maxDepth = 64
    /// How many levels of arrays and objects are read into values (below
    /// them, `.composite`): one for a client's message, more for the
    /// store's own JSON (``value(of:levels:)``).
    private let levels: Int

    init(bytes: [UInt8], levels: Int = 1) {
        self.bytes = bytes
        self.levels = levels
    }

    /// One whole JSON value read `levels` deep, or nil when `bytes` is not
    /// one (the stores' JSON beside a message: ``StoredActFields``).
    public static func value(of bytes: [UInt8], levels: Int) -> JSONValue? {
        var reader = ClientMessageJSON(bytes: bytes, levels: levels)
        reader.skipWhitespace()
        guard let value = try? reader.scalar() else { return nil }
        reader.skipWhitespace()
        return reader.index == bytes.count ? value : nil
    }

    /// Reads one whole object, handing each wanted member's value to `found`
    /// (which refuses a member given twice: ``once(_:_:_:)``); `example`
    /// names what was expected when it is no object (``objectStart(_:)``).
    mutating func object(wanting wanted: (String) -> Bool, example: String = "{...}",
                         _ found: (String, JSONValue) throws(Refusal) -> Void) throws(Refusal) {
        try objectStart(example)
        try members { reader, key throws(Refusal) in
            guard wanted(key) else { return try reader.skipValue(depth: 1) }
            try found(key, try reader.scalar())
        }
        try objectEnd()
    }

    /// Reads one whole object as ``object(wanting:example:_:)`` does, for a
    /// reader that knows its names: each member named in `names` is handed
    /// to `found` with its place in `names` (its name compared where it
    /// lies: ``name(among:)``), every other member skipped.
    mutating func object(among names: [StaticString], example: String,
                         _ found: (Int, JSONValue) throws(Refusal) -> Void) throws(Refusal) {
        try objectStart(example)
        try members(key: { reader throws(Refusal) in try reader.name(among: names) }) { reader, place throws(Refusal) in
            guard let place else { return try reader.skipValue(depth: 1) }
            try found(place, try reader.scalar())
        }
        try objectEnd()
    }

    /// Up to an object's `{`, past a UTF-8 byte order mark (RFC 8259 8.1:
    /// a reader may ignore one; a conversation's body, read by Foundation,
    /// already did) and white space; `example` names what was expected.
    private mutating func objectStart(_ example: String) throws(Refusal) {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        skipWhitespace()
        guard peek() == UInt8(ascii: "{") else { throw Refusal(reason: "expected an object like \(example)") }
    }

    /// After an object's `}`: nothing but white space.
    private mutating func objectEnd() throws(Refusal) {
        skipWhitespace()
        guard index == bytes.count else { throw Refusal(reason: "unexpected bytes after the object") }
    }

    /// Keeps `value` in `slot`, the first time only: a member read twice
    /// (`{"text":"a","text":"b"}`, at the top or in a nested object) is
    /// refused, as I-JSON (RFC 7493) asks, rather than one reader taking the
    /// first and another the last.
    static func once(_ slot: inout JSONValue?, _ value: JSONValue, _ key: String) throws(Refusal) {
        guard slot == nil else { throw Refusal(reason: "'\(key)' is given twice") }
        slot = value
    }

    /// A member's value as a ``JSONValue``: scalars, and arrays and objects
    /// down to ``levels`` (a client's: one level); deeper is skipped.
    private mutating func scalar(depth: Int = 0) throws(Refusal) -> JSONValue {
        let nested = depth >= levels
        switch peek() {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t") where matches("true"): index += 4; return .bool(true)
        case UInt8(ascii: "f") where matches("false"): index += 5; return .bool(false)
        case UInt8(ascii: "n") where matches("null"): index += 4; return .null
        case UInt8(ascii: "{") where nested, UInt8(ascii: "[") where nested:
            try skipValue(depth: depth + 1)
            return .composite
        case UInt8(ascii: "["):
            var values: [JSONValue] = []
            index += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "]") { index += 1; return .array(values) }
            while true {
                skipWhitespace()
                values.append(try scalar(depth: depth + 1))
                skipWhitespace()
                if peek() == UInt8(ascii: ",") { index += 1; continue }
                try expect(UInt8(ascii: "]"), "expected ',' or ']'")
                return .array(values)
            }
        case UInt8(ascii: "{"):
            var members: [String: JSONValue] = [:]
            try self.members { reader, key throws(Refusal) in try Self.once(&members[key], try reader.scalar(depth: depth + 1), key) }
            return .object(members)
        default:
            let start = index
            try number()
            return .number(String(decoding: bytes[start..<index], as: UTF8.self))
        }
    }

    /// Reads an object from its `{` to its `}`, handing each member's name
    /// to `value`, which must read (or skip) the member's value.
    private mutating func members(_ value: (inout ClientMessageJSON, String) throws(Refusal) -> Void) throws(Refusal) {
        try members(key: { reader throws(Refusal) in try reader.string() }, value)
    }

    /// ``members(_:)`` with each name read by `readKey`.
    private mutating func members<Key>(key readKey: (inout ClientMessageJSON) throws(Refusal) -> Key,
                                       _ value: (inout ClientMessageJSON, Key) throws(Refusal) -> Void) throws(Refusal) {
        try expect(UInt8(ascii: "{"), "expected an object")
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { index += 1; return }
        while true {
            skipWhitespace()
            let key = try readKey(&self)
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "expected ':' after a name")
            skipWhitespace()
            try value(&self, key)
            skipWhitespace()
            if peek() == UInt8(ascii: ",") { index += 1; continue }
            try expect(UInt8(ascii: "}"), "expected ',' or '}'")
            return
        }
    }

    // MARK: values

    private mutating func skipValue(depth: Int) throws(Refusal) {
        guard depth <= Self.maxDepth else { throw Refusal(reason: "nested too deeply") }
        switch peek() {
        case UInt8(ascii: "\""):
            _ = try string()
        case UInt8(ascii: "{"):
            try members { reader, _ throws(Refusal) in try reader.skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            index += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "]") { index += 1; return }
            while true {
                skipWhitespace()
                try skipValue(depth: depth + 1)
                skipWhitespace()
                if peek() == UInt8(ascii: ",") { index += 1; continue }
                try expect(UInt8(ascii: "]"), "expected ',' or ']'")
                return
            }
        case UInt8(ascii: "t") where matches("true"): index += 4
        case UInt8(ascii: "f") where matches("false"): index += 5
        case UInt8(ascii: "n") where matches("null"): index += 4
        default:
            try number()
        }
    }
}
