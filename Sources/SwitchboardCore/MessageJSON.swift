import Foundation

/// JSON encodings of messages and API answers, built around pre-encoded message bytes.
public enum MessageJSON {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return encoder
    }()

    /// A message as a JSON object with its fields in the documented order
    /// (`id`, `room`, `user`, `text`, `kind`, `ts`); strings are escaped by
    /// Foundation's encoder.
    public static func encode(_ message: Message) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(message.text.utf8.count + message.user.utf8.count + 96)
        out.append(contentsOf: #"{"id":"#.utf8)
        out.append(contentsOf: String(message.id).utf8)
        out.append(contentsOf: #","room":"#.utf8)
        out.append(contentsOf: encode(message.room))
        out.append(contentsOf: #","user":"#.utf8)
        out.append(contentsOf: encode(message.user))
        out.append(contentsOf: #","text":"#.utf8)
        out.append(contentsOf: encode(message.text))
        out.append(contentsOf: #","kind":""#.utf8)
        out.append(contentsOf: message.kind.rawValue.utf8)
        out.append(contentsOf: #"","ts":"#.utf8)
        out.append(contentsOf: String(message.ts).utf8)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// Encodes one value with the shared encoder settings (keys sorted).
    public static func encode<T: Encodable>(_ value: T) -> [UInt8] {
        // Encoding plain structs of strings and integers cannot fail.
        // swiftlint:disable:next force_try
        [UInt8](try! encoder.encode(value))
    }

    /// `{"messages":[m1,m2,...],"next":N}` from already-encoded messages.
    public static func page(_ messages: [EncodedMessage], next: Int64) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(32 + messages.reduce(0) { $0 + $1.json.count + 1 })
        out.append(contentsOf: #"{"messages":["#.utf8)
        for (index, message) in messages.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: message.json)
        }
        out.append(contentsOf: #"],"next":"#.utf8)
        out.append(contentsOf: String(next).utf8)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// `{"error":{"code":..,"message":..}}`.
    public static func error(_ error: SwitchboardError) -> [UInt8] {
        encode(ErrorEnvelope(error: .init(code: error.code, message: error.message)))
    }

    private struct ErrorEnvelope: Encodable {
        struct Body: Encodable {
            var code: String
            var message: String
        }
        var error: Body
    }
}
