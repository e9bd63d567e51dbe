import Testing
@testable import SwitchboardHooks

/// The signature a receiver checks, against Python's `hmac` (the receiver in Tests/Hooks).
@Suite struct HookSignatureTests {
    let signature = HookSignature(secret: "s3cret")
    let body = Array(#"{"id":"1"}"#.utf8)

    @Test func matchesPythonsHMAC() {
        // python3 -c 'import hmac,hashlib; print(hmac.new(b"s3cret", b"1700000000." + b"{\"id\":\"1\"}", hashlib.sha256).hexdigest())'
        #expect(signature.header(timestamp: 1_700_000_000, body: body)
            == "sha256=2b9dee6c893e4bf012ad34ee7b89d492b9567b4f47740ccbf0f161ba3717dc08")
    }

    @Test func verifiesOnlyWhatItSigned() {
        let header = signature.header(timestamp: 1_700_000_000, body: body)
        #expect(signature.verifies(header, timestamp: 1_700_000_000, body: body))
        #expect(signature.verifies(header.uppercased().replacingOccurrences(of: "SHA256=", with: "sha256="), timestamp: 1_700_000_000, body: body))
        #expect(!signature.verifies(header, timestamp: 1_700_000_001, body: body))
        #expect(!signature.verifies(header, timestamp: 1_700_000_000, body: body + [32]))
        #expect(!HookSignature(secret: "other").verifies(header, timestamp: 1_700_000_000, body: body))
        #expect(!signature.verifies("sha256=zz", timestamp: 1_700_000_000, body: body))
        #expect(!signature.verifies(String(header.dropLast()), timestamp: 1_700_000_000, body: body))
    }
}
