import Foundation

/// JSON encodings of messages and API answers, built around pre-encoded message bytes.
public enum MessageJSON {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return encoder
    }()

    /// A message as a JSON object with its fields in the documented order
    /// (`id`, `room`, `user`, `text`, `kind`, `ts`, a conversation's `event`, and the `media` it carries); strings are escaped as
    /// Foundation's encoder escapes them (``appendString(_:to:)``), without it:
    /// every publish is encoded once, and the encoder was 6 % of a publishing
    /// server's time.
    public static func encode(_ message: Message) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(message.text.utf8.count + message.user.utf8.count + 96)
        out.append(contentsOf: #"{"id":"#.utf8)
        out.append(contentsOf: String(message.id).utf8)
        out.append(contentsOf: #","room":"#.utf8)
        appendString(message.room, to: &out)
        out.append(contentsOf: #","user":"#.utf8)
        appendString(message.user, to: &out)
        out.append(contentsOf: #","text":"#.utf8)
        appendString(message.text, to: &out)
        out.append(contentsOf: #","kind":""#.utf8)
        out.append(contentsOf: message.kind.rawValue.utf8)
        out.append(contentsOf: #"","ts":"#.utf8)
        out.append(contentsOf: String(message.ts).utf8)
        if let event = message.event {
            out.append(contentsOf: #","event":"#.utf8)
            out.append(contentsOf: encode(event))
        }
        if let media = message.media, !media.isEmpty {
            out.append(contentsOf: #","media":"#.utf8)
            out.append(contentsOf: encode(media))
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// Appends `string` as a JSON string, byte for byte as `JSONEncoder`
    /// (without escaping slashes) writes it: quote and backslash escaped with
    /// a backslash, the short escapes for backspace, tab, newline, form feed
    /// and carriage return, `\u00xx` (lower-case hex) for the other controls
    /// below 0x20, and everything else (all of Unicode) as its UTF-8 bytes.
    public static func appendString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { bytes in
            var start = 0
            for (index, byte) in bytes.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                start = index + 1
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    out.append(UInt8(ascii: "\\"))
                    out.append(byte)
                case 0x08: out.append(contentsOf: #"\b"#.utf8)
                case 0x09: out.append(contentsOf: #"\t"#.utf8)
                case 0x0A: out.append(contentsOf: #"\n"#.utf8)
                case 0x0C: out.append(contentsOf: #"\f"#.utf8)
                case 0x0D: out.append(contentsOf: #"\r"#.utf8)
                default:
                    out.append(contentsOf: #"\u00"#.utf8)
                    out.append(hexDigits[Int(byte >> 4)])
                    out.append(hexDigits[Int(byte & 0x0F)])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Encodes one value with the shared encoder settings (keys sorted).
    public static func encode<T: Encodable>(_ value: T) -> [UInt8] {
        // Encoding plain structs of strings and integers cannot fail.
        // swiftlint:disable:next force_try
        [UInt8](try! encoder.encode(value))
    }
}
