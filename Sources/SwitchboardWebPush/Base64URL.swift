/// base64url without padding (RFC 4648 §5), as Web Push writes keys, salts
/// and tokens. By hand rather than through Foundation's base64 and string
/// replacements: it runs several times per push.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xff, count: 256)
        for (index, character) in alphabet.enumerated() { table[Int(character)] = UInt8(index) }
        return table
    }()

    /// `bytes` in base64url, unpadded.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let input = Array(bytes)
        var out: [UInt8] = []
        out.reserveCapacity((input.count * 4 + 2) / 3)
        var index = 0
        while index + 3 <= input.count {
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            for shift in [18, 12, 6, 0] { out.append(alphabet[Int(chunk >> UInt32(shift) & 63)]) }
            index += 3
        }
        let rest = input.count - index
        if rest > 0 {
            let chunk = UInt32(input[index]) << 16 | (rest == 2 ? UInt32(input[index + 1]) << 8 : 0)
            for shift in [18, 12, 6].prefix(rest + 1) { out.append(alphabet[Int(chunk >> UInt32(shift) & 63)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of `text` in base64url (padded or not; `+`, `/` and anything else refused); nil when it is not.
    public static func decode(_ text: String) -> [UInt8]? {
        var characters = Array(text.utf8)
        while characters.last == UInt8(ascii: "=") { characters.removeLast() }
        guard characters.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(characters.count * 3 / 4)
        var chunk: UInt32 = 0, bits = 0
        for character in characters {
            let value = values[Int(character)]
            guard value != 0xff else { return nil }
            chunk = chunk << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: chunk >> UInt32(bits)))
            }
        }
        // The bits left over must be zero, as an encoder writes them (no two texts for one value).
        guard chunk & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return out
    }
}
