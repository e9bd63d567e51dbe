import Foundation

/// JSON encodings of messages and API answers, built around pre-encoded message bytes.
public enum MessageJSON {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return encoder
    }()

    /// A message as a JSON object with its fields in the documented order
    /// (`id`, `room`, `user`, `text`, `kind`, `ts`, a conversation's `event`, the `media` it carries, then replies' and acts' fields); strings are escaped as
    /// Foundation's encoder escapes them (``appendString(_:to:)``), without it:
    /// every publish is encoded once, and the encoder was 6 % of a publishing
    /// server's time.
    public static func encode(_ message: Message) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(message.text.utf8.count + message.user.utf8.count + 96)
        out.append(literal: #"{"id":"#)
        out.appendDecimal(message.id)
        out.append(literal: #","room":"#)
        appendString(message.room, to: &out)
        out.append(literal: #","user":"#)
        appendString(message.user, to: &out)
        if message.deleted != true {
            out.append(literal: #","text":"#)
            appendString(message.text, to: &out)
        }
        out.append(literal: #","kind":""#)
        out.append(contentsOf: message.kind.rawValue.utf8)
        out.append(literal: #"","ts":"#)
        out.appendDecimal(message.ts)
        if let event = message.event {
            out.append(literal: #","event":"#)
            out.append(contentsOf: encode(event))
        }
        if let media = message.media, !media.isEmpty {
            out.append(literal: #","media":"#)
            out.append(contentsOf: encode(media))
        }
        if let clientID = message.clientID, message.deleted != true {
            out.append(literal: #","client_id":"#)
            appendString(clientID, to: &out)
        }
        if message.replyTo != nil || message.target != nil || message.location != nil || message.edited != nil
            || message.deleted != nil || message.reactions != nil || message.replies != nil {
            appendActs(of: message, to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The fields of replies, acts and what acts made of a message, in
    /// order: `reply_to`, `target`, `emoji`, `on`, `location`, `edited`,
    /// `deleted`, `reactions`, `replies`.
    private static func appendActs(of message: Message, to out: inout [UInt8]) {
        func number(_ name: String, _ value: Int64?) {
            guard let value else { return }
            out.append(contentsOf: ",\"\(name)\":\(value)".utf8)
        }
        number("reply_to", message.replyTo)
        number("target", message.target)
        if let emoji = message.emoji {
            out.append(contentsOf: #","emoji":"#.utf8)
            appendString(emoji, to: &out)
        }
        if let on = message.on { out.append(contentsOf: (on ? #","on":true"# : #","on":false"#).utf8) }
        if let location = message.location {
            out.append(contentsOf: ",\"location\":{\"lat\":\(Location.degrees(location.lat)),\"lon\":\(Location.degrees(location.lon))".utf8)
            if let accuracy = location.accuracy { out.append(contentsOf: ",\"accuracy\":\(Location.degrees(accuracy))".utf8) }
            out.append(UInt8(ascii: "}"))
        }
        number("edited", message.edited)
        if message.deleted == true { out.append(contentsOf: #","deleted":true"#.utf8) }
        if let reactions = message.reactions, !reactions.isEmpty {
            out.append(contentsOf: #","reactions":"#.utf8)
            out.append(contentsOf: reactions.json)
        }
        number("replies", message.replies.map(Int64.init))
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
            // The plain runs are found eight bytes at a time (``JSONStringScan``).
            while true {
                let index = JSONStringScan.firstSpecial(in: bytes, from: start)
                guard index < bytes.count else { break }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                start = index + 1
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    out.append(UInt8(ascii: "\\"))
                    out.append(byte)
                case 0x08: out.append(literal: #"\b"#)
                case 0x09: out.append(literal: #"\t"#)
                case 0x0A: out.append(literal: #"\n"#)
                case 0x0C: out.append(literal: #"\f"#)
                case 0x0D: out.append(literal: #"\r"#)
                default:
                    out.append(literal: #"\u00"#)
                    out.append(hexDigits[Int(byte >> 4)])
                    out.append(hexDigits[Int(byte & 0x0F)])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `strings` as a JSON array, byte for byte as the shared encoder writes
    /// it, without that encoder: it took about 14,000 instructions for one
    /// name, on every message a member is away for.
    public static func encode(strings: [String]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "[")]
        for (index, string) in strings.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            appendString(string, to: &out)
        }
        out.append(UInt8(ascii: "]"))
        return out
    }

    /// Encodes one value with the shared encoder settings (keys sorted).
    public static func encode<T: Encodable>(_ value: T) -> [UInt8] {
        // Encoding plain structs of strings and integers cannot fail.
        // swiftlint:disable:next force_try
        [UInt8](try! encoder.encode(value))
    }
}
