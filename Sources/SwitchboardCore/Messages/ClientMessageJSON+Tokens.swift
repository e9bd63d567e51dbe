/// The tokens of ``ClientMessageJSON``: numbers, strings with their
/// escapes, and the byte-level steps (peek, expect, whitespace) that the
/// object and value readers are written in.
extension ClientMessageJSON {
    /// A number as JSON spells it: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
    mutating func number() throws(Refusal) {
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
    mutating func string() throws(Refusal) -> String {
        try expect(UInt8(ascii: "\""), "expected a string")
        let start = index
        // The common case, no escape: scanned on the buffer and decoded in one copy (`peek()`'s
        // optional and bounds check at every byte made a publish's JSON 4,620 instructions to
        // read, about 4,000 this way, callgrind), eight bytes at a time (``plainString(from:_:)``).
        // Any other string is read by the loop below, which refuses a control character or a
        // string that does not end.
        if let (end, plain) = plainString(from: start, { String(decoding: $0, as: UTF8.self) }) {
            index = end
            return plain
        }
        var scalars: [UInt8] = []
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

    /// A member's name as its place in `names`, nil for any other name.
    /// Compared as bytes where it lies when it holds no escape (a string
    /// made of each name and compared with each of `names` was about 1,000
    /// instructions a publish, callgrind); an escaped one is read as a
    /// string (``string()``) and compared as one.
    mutating func name(among names: [StaticString]) throws(Refusal) -> Int? {
        let open = index
        try expect(UInt8(ascii: "\""), "expected a string")
        let found = plainString(from: index) { name in names.firstIndex { $0.equals(name) } }
        if let (end, place) = found {
            index = end
            return place
        }
        index = open
        let key = try string()
        return names.firstIndex { $0.description == key }
    }

    /// `read` of the bytes of a string from `start` (after its opening
    /// quote) to its closing quote, and where the string ends (after that
    /// quote), when no escape or control character comes first: the common
    /// string, found eight bytes at a time (``JSONStringScan``); nil for
    /// any other, left to be read the long way.
    @inline(__always)
    private func plainString<Result>(from start: Int, _ read: (UnsafeBufferPointer<UInt8>) -> Result) -> (end: Int, Result)? {
        bytes.withUnsafeBufferPointer { buffer in
            let end = JSONStringScan.firstSpecial(in: buffer, from: start)
            guard end < buffer.count, buffer[end] == UInt8(ascii: "\"") else { return nil }
            return (end + 1, read(UnsafeBufferPointer(rebasing: buffer[start..<end])))
        }
    }

    mutating func hex4() throws(Refusal) -> UInt32 {
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

    /// The byte at the reading position; nil at the end.
    func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    func matches(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return bytes.withUnsafeBufferPointer { literal.equals(UnsafeBufferPointer(rebasing: $0[index..<(index + count)])) }
    }

    mutating func expect(_ byte: UInt8, _ reason: String) throws(Refusal) {
        guard peek() == byte else { throw Refusal(reason: reason) }
        index += 1
    }

    mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }
}
