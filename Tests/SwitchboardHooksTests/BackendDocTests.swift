import Crypto
import Foundation
import Testing
@testable import SwitchboardHooks

/// docs/BACKEND.md's Swift check, copied from the page as it stands: it accepts what the server signs, and nothing else.
@Suite struct BackendDocTests {
    // --- from docs/BACKEND.md
    func verified(secret: String, timestamp: String, signature: String, body: [UInt8]) -> Bool {
        guard let seconds = Int64(timestamp), abs(Int64(Date().timeIntervalSince1970) - seconds) <= 300,
              signature.hasPrefix("sha256="), let mac = hexBytes(signature.dropFirst(7)) else { return false }
        let key = SymmetricKey(data: Array(secret.utf8))
        return HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Array("\(timestamp).".utf8) + body, using: key)
    }

    func hexBytes(_ hex: Substring) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
    // --- end

    @Test func acceptsTheServersSignatureAndNothingElse() {
        let now = Int64(Date().timeIntervalSince1970), body = Array(#"{"id":"7","type":"user.online","ts":1,"data":{"user":"leia"}}"#.utf8)
        let header = HookSignature(secret: "shared").header(timestamp: now, body: body)
        #expect(verified(secret: "shared", timestamp: String(now), signature: header, body: body))
        #expect(!verified(secret: "other", timestamp: String(now), signature: header, body: body))
        #expect(!verified(secret: "shared", timestamp: String(now), signature: header, body: body + [10]))
        let old = now - 600
        #expect(!verified(secret: "shared", timestamp: String(old), signature: HookSignature(secret: "shared").header(timestamp: old, body: body),
                          body: body), "a replay from ten minutes ago")
        #expect(!verified(secret: "shared", timestamp: String(now), signature: "sha256=xyz", body: body))
    }
}
