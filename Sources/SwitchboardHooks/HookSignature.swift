import Crypto

/// How every request to an application's backend is signed (SPEC "An
/// application's backend"): `X-Switchboard-Signature: sha256=HEX`, the
/// HMAC-SHA256 with `--webhook-secret` of `TIMESTAMP.BODY`, where
/// `TIMESTAMP` is `X-Switchboard-Timestamp` (Unix seconds). A receiver
/// recomputes it over the raw body and compares in constant time, and
/// refuses a timestamp too far from its clock (a replay).
public struct HookSignature: Sendable {
    let key: SymmetricKey

    public init(secret: String) {
        key = SymmetricKey(data: Array(secret.utf8))
    }

    /// `sha256=HEX` for `body` sent at `timestamp`.
    public func header(timestamp: Int64, body: [UInt8]) -> String {
        var hmac = HMAC<SHA256>(key: key)
        hmac.update(data: Array("\(timestamp).".utf8))
        hmac.update(data: body)
        return "sha256=" + Self.hex(Array(hmac.finalize()))
    }

    /// Whether `header` signs `body` at `timestamp` (constant time).
    public func verifies(_ header: String, timestamp: Int64, body: [UInt8]) -> Bool {
        guard header.hasPrefix("sha256="), let given = Self.bytes(hex: header.dropFirst(7)) else { return false }
        var message = Array("\(timestamp).".utf8)
        message.append(contentsOf: body)
        return HMAC<SHA256>.isValidAuthenticationCode(given, authenticating: message, using: key)
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func bytes(hex: Substring) -> [UInt8]? {
        let chars = Array(hex.utf8)
        guard chars.count % 2 == 0 else { return nil }
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var out: [UInt8] = []
        var index = 0
        while index < chars.count {
            guard let high = value(chars[index]), let low = value(chars[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }
}
