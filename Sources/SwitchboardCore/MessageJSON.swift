import Foundation

/// JSON encodings of messages and API answers, built around pre-encoded message bytes.
public enum MessageJSON {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()

    /// Encodes one value with the shared encoder settings.
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
