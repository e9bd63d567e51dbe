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

    private let bytes: [UInt8]
    private var index = 0
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

    /// Reads one whole object, handing each wanted member's value to `found`.
    mutating func object(wanting wanted: (String) -> Bool, _ found: (String, JSONValue) -> Void) throws(Refusal) {
        skipWhitespace()
        guard peek() == UInt8(ascii: "{") else { throw Refusal(reason: "expected an object like {\"user\":\"luke\",\"text\":\"hi\"}") }
        try members { reader, key throws(Refusal) in
            guard wanted(key) else { return try reader.skipValue(depth: 1) }
            found(key, try reader.scalar())
        }
        skipWhitespace()
        guard index == bytes.count else { throw Refusal(reason: "unexpected bytes after the object") }
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
            var twice: String?
            try self.members { reader, key throws(Refusal) in
                if members[key] != nil { twice = key }
                members[key] = try reader.scalar(depth: depth + 1)
            }
            if let twice { throw Refusal(reason: "'\(twice)' is given twice") }
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
        try expect(UInt8(ascii: "{"), "expected an object")
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { index += 1; return }
        while true {
            skipWhitespace()
            let key = try string()
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

    /// A number as JSON spells it: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
    private mutating func number() throws(Refusal) {
        let refusal = Refusal(reason: "expected a value")
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek(), isDigit(first) else { throw refusal }
        index += 1
        if first != UInt8(ascii: "0") { while let d = peek(), isDigit(d) { index += 1 } }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard let d = peek(), isDigit(d) else { throw refusal }
            while let d = peek(), isDigit(d) { index += 1 }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard let d = peek(), isDigit(d) else { throw refusal }
            while let d = peek(), isDigit(d) { index += 1 }
        }
    }

    /// A string, unescaped. The body is valid UTF-8 (checked before).
    private mutating func string() throws(Refusal) -> String {
        try expect(UInt8(ascii: "\""), "expected a string")
        let start = index
        // The common case: no escapes, one copy. The scan runs on the buffer: `peek()`'s
        // optional and bounds check at every byte made a publish's JSON 4,620 instructions
        // to read, 3,937 this way (callgrind).
        index = bytes.withUnsafeBufferPointer { buffer in
            var position = start
            while position < buffer.count {
                let byte = buffer[position]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                position += 1
            }
            return position
        }
        if let byte = peek(), byte < 0x20 { throw Refusal(reason: "a control character inside a string") }
        if peek() == UInt8(ascii: "\"") {
            let end = index
            index += 1
            return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self) }
        }
        var scalars = Array(bytes[start..<index])
        while true {
            guard let byte = peek() else { throw Refusal(reason: "a string that does not end") }
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: scalars, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escaped = peek() else { throw Refusal(reason: "a string that does not end") }
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escaped)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard matches("\\u") else { throw Refusal(reason: "a lone surrogate in \\u escapes") }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw Refusal(reason: "a lone surrogate in \\u escapes") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw Refusal(reason: "a lone surrogate in \\u escapes")
                    }
                    scalars.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
                default:
                    throw Refusal(reason: "an unknown escape \\\(Character(Unicode.Scalar(escaped)))")
                }
            default:
                guard byte >= 0x20 else { throw Refusal(reason: "a control character inside a string") }
                scalars.append(byte)
            }
        }
    }

    private mutating func hex4() throws(Refusal) -> UInt32 {
        guard index + 4 <= bytes.count else { throw Refusal(reason: "a short \\u escape") }
        var value: UInt32 = 0
        for byte in bytes[index..<(index + 4)] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Refusal(reason: "a bad \\u escape")
            }
            value = value << 4 | UInt32(digit)
        }
        index += 4
        return value
    }

    // MARK: bytes

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private func matches(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        return bytes[index..<(index + count)].elementsEqual(expected)
    }

    private mutating func expect(_ byte: UInt8, _ reason: String) throws(Refusal) {
        guard peek() == byte else { throw Refusal(reason: reason) }
        index += 1
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }
}
