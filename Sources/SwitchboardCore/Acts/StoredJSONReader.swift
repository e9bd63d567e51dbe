/// A small reader for the JSON the stores keep beside a message (``StoredActFields``):
/// objects, arrays, strings, numbers, booleans and null, with any white
/// space (PostgreSQL's `jsonb` writes `{"a": 1, "b": 2}`). The store's own
/// text, not a client's: Foundation's decoder was a reply's and a replay's
/// largest cost, and these few shapes need none of it.
struct StoredJSONReader {
    indirect enum Value: Equatable {
        case object([(String, Value)]), array([Value]), string(String), number(Double), bool(Bool), null

        static func == (lhs: Value, rhs: Value) -> Bool {
            switch (lhs, rhs) {
            case (.object(let a), .object(let b)): return a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
            case (.array(let a), .array(let b)): return a == b
            case (.string(let a), .string(let b)): return a == b
            case (.number(let a), .number(let b)): return a == b
            case (.bool(let a), .bool(let b)): return a == b
            case (.null, .null): return true
            default: return false
            }
        }

        subscript(key: String) -> Value? {
            guard case .object(let members) = self else { return nil }
            return members.first { $0.0 == key }?.1
        }

        var string: String? { if case .string(let value) = self { return value } else { return nil } }
        var number: Double? { if case .number(let value) = self { return value } else { return nil } }
        var bool: Bool? { if case .bool(let value) = self { return value } else { return nil } }
        var int64: Int64? { number.flatMap { $0.isFinite && abs($0) < 9.0e15 ? Int64($0) : nil } }
    }

    private let bytes: [UInt8]
    private var index = 0

    /// The value `text` holds, or nil when it is not JSON of these shapes.
    static func read(_ text: String) -> Value? {
        var reader = StoredJSONReader(bytes: Array(text.utf8))
        guard let value = reader.value(depth: 0) else { return nil }
        reader.skipSpace()
        return reader.index == reader.bytes.count ? value : nil
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func value(depth: Int) -> Value? {
        skipSpace()
        guard index < bytes.count, depth < 8 else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            var members: [(String, Value)] = []
            if take(UInt8(ascii: "}")) { return .object(members) }
            repeat {
                skipSpace()
                guard let key = string(), take(UInt8(ascii: ":")), let member = value(depth: depth + 1) else { return nil }
                members.append((key, member))
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "}")) ? .object(members) : nil
        case UInt8(ascii: "["):
            index += 1
            var elements: [Value] = []
            if take(UInt8(ascii: "]")) { return .array(elements) }
            repeat {
                guard let element = value(depth: depth + 1) else { return nil }
                elements.append(element)
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "]")) ? .array(elements) : nil
        case UInt8(ascii: "\""): return string().map(Value.string)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        default:
            let start = index
            while index < bytes.count, "+-.0123456789eE".utf8.contains(bytes[index]) { index += 1 }
            return Double(String(decoding: bytes[start..<index], as: UTF8.self)).map(Value.number)
        }
    }

    private mutating func literal(_ word: String, _ value: Value) -> Value? {
        let word = Array(word.utf8)
        guard bytes.count - index >= word.count, Array(bytes[index..<index + word.count]) == word else { return nil }
        index += word.count
        return value
    }

    /// A string from its opening quote, escapes read (`\uXXXX` with surrogate pairs).
    private mutating func string() -> String? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        index += 1
        var out: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { return nil }
                let escaped = bytes[index]
                index += 1
                switch escaped {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "u"):
                    guard var scalar = hex4() else { return nil }
                    if (0xD800..<0xDC00).contains(scalar), bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"),
                       bytes[index + 1] == UInt8(ascii: "u") {
                        index += 2
                        guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    out.append(contentsOf: String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
                default: out.append(escaped)
                }
            default: out.append(byte)
            }
        }
        return nil
    }

    private mutating func hex4() -> UInt32? {
        guard bytes.count - index >= 4, let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
            return nil
        }
        index += 4
        return value
    }
}
