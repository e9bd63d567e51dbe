import Crypto
import Foundation
import JWTKit
import Synchronization
import Testing
@testable import SwitchboardWebPush

/// RFC 8292's header: an ES256 token for the push service's origin that the
/// public key in `k=` verifies, reused until an hour before it runs out.
@Suite struct VAPIDSignerTests {
    @Test func theTokenVerifiesWithTheKeyItNames() async throws {
        let key = VAPIDKey()
        let now = Mutex(1_800_000_000)
        let signer = VAPIDSigner(key: key, subject: "mailto:ops@example.com", clock: { now.withLock { $0 } })
        let header = try await signer.authorization(for: "https://push.example.com")
        let parts = header.split(separator: " ")
        #expect(parts.count == 3 && parts[0] == "vapid")
        let token = String(parts[1].dropFirst(2).dropLast())   // t=…,
        #expect(parts[2] == "k=\(key.publicKeyBase64URL)")

        let publicKey = try P256.Signing.PublicKey(x963Representation: try #require(Base64URL.decode(key.publicKeyBase64URL)))
        let verifier = await JWTKeyCollection().add(ecdsa: try ES256PublicKey(backing: publicKey))
        let claims = try await verifier.verify(token, as: Unverified.self)
        #expect(claims.aud == "https://push.example.com" && claims.sub == "mailto:ops@example.com")
        #expect(claims.exp == 1_800_000_000 + 12 * 3600)
        let head = try JSONSerialization.jsonObject(with: Data(try #require(Base64URL.decode(String(token.split(separator: ".")[0]))))) as? [String: String]
        #expect(head?["alg"] == "ES256" && head?["typ"] == "JWT")

        #expect(try await signer.authorization(for: "https://push.example.com") == header)   // reused
        #expect(try await signer.authorization(for: "https://other.example.com") != header)  // another audience
        now.withLock { $0 += 11 * 3600 + 1 }                                                    // within an hour of its end
        #expect(try await signer.authorization(for: "https://push.example.com") != header)
    }

    @Test func theKeyKeepsThroughItsRawForm() throws {
        let key = VAPIDKey()
        #expect(try VAPIDKey(raw: key.raw).publicKeyBase64URL == key.publicKeyBase64URL)
        #expect(Base64URL.decode(key.publicKeyBase64URL)?.count == 65)
    }

    /// The claims as they came, checked by nothing but the signature (the test's own clock is in 2027).
    struct Unverified: JWTPayload {
        var aud: String
        var exp: Int
        var sub: String
        func verify(using algorithm: some JWTAlgorithm) throws {}
    }
}
