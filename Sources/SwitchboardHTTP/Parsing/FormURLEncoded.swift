import SwitchboardCore

/// Decoding of `application/x-www-form-urlencoded` bodies (WHATWG URL,
/// "application/x-www-form-urlencoded parsing"): `&`-separated `name=value`,
/// `+` for space, `%XX` escapes; names and values must decode to UTF-8.
enum FormURLEncoded {
    /// The fields of `body`, in order. A field without `=` has an empty value.
    /// - Throws: ``SwitchboardError`` `malformed_form` for a bad `%` escape,
    ///   `invalid_utf8` when a decoded field is not UTF-8.
    static func decode(_ body: [UInt8]) throws(SwitchboardError) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        for pair in body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            let name = try decodeComponent(parts[0])
            let value = parts.count > 1 ? try decodeComponent(parts[1]) : ""
            fields.append((name, value))
        }
        return fields
    }

    private static func decodeComponent(_ bytes: ArraySlice<UInt8>) throws(SwitchboardError) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "+"):
                out.append(UInt8(ascii: " "))
                index += 1
            case UInt8(ascii: "%"):
                guard index + 2 < bytes.endIndex,
                      let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
                else { throw .malformedForm("'%' must be followed by two hex digits") }
                out.append(high << 4 | low)
                index += 3
            default:
                out.append(byte)
                index += 1
            }
        }
        guard let string = out.validUTF8String else { throw .invalidUTF8 }
        return string
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
