import Crypto
import Foundation
import HummingbirdBcrypt
import Testing
import SwitchboardAuth
import SwitchboardCore

/// Tokens the server mints are accepted; every forgery is refused with its
/// reason. (Tokens minted by another library — PyJWT — are checked by the
/// integration tests, against a running server.)
struct JWTTokenVerifierTests {
    let serverKey: [UInt8] = Array(repeating: 7, count: 32)
    let now: Int64 = 1_800_000_000_000

    private func verifier() throws -> JWTTokenVerifier {
        JWTTokenVerifier(keys: try TokenKeys.load(serverKey: serverKey, secret: "backend secret, thirty-two bytes or more"))
    }

    /// A compact JWT with the given header and claims, signed HS256 with `key` (or unsigned).
    private func token(header: String = #"{"alg":"HS256","typ":"JWT"}"#, claims: String, key: [UInt8]?) -> String {
        let signingInput = Self.base64URL(Array(header.utf8)) + "." + Self.base64URL(Array(claims.utf8))
        guard let key else { return signingInput + "." }
        return signingInput + "." + Self.base64URL(Array(HMAC<SHA256>.authenticationCode(for: Array(signingInput.utf8), using: SymmetricKey(data: key))))
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    @Test func aSessionTheServerMintsIsAccepted() throws {
        let keys = try TokenKeys.load(serverKey: serverKey)
        let session = try SessionTokens(keys: keys, lifetime: 3600).mint(for: "luke", now: now)
        let claims = try JWTTokenVerifier(keys: keys).verify(session.token, now: now + 1000)
        #expect(claims.user == "luke")
        #expect(claims.expires == session.expires)
        #expect(claims.rooms.isUnlimited)
        #expect(!claims.revocationKey.isEmpty)
        // Expired once its lifetime is over.
        #expect(throws: SwitchboardError.self) { try JWTTokenVerifier(keys: keys).verify(session.token, now: session.expires) }
    }

    @Test func aBackendTokenWithTheSecretIsAcceptedWithItsRooms() throws {
        let exp = now / 1000 + 60
        let claims = try verifier().verify(token(claims: #"{"sub":"leia","exp":\#(exp),"rooms":["lobby","team-*"]}"#,
                                                 key: Array("backend secret, thirty-two bytes or more".utf8)), now: now)
        #expect(claims.user == "leia")
        #expect(claims.rooms.allows("lobby") && claims.rooms.allows("team-red") && !claims.rooms.allows("other"))
        #expect(claims.revocationKey.hasPrefix("sha256:"))
    }

    @Test(arguments: [
        ("unsigned", #"{"alg":"none"}"#, #"{"sub":"x","exp":EXP}"#, "none", "alg 'none'"),
        ("wrong key", #"{"alg":"HS256"}"#, #"{"sub":"x","exp":EXP}"#, "wrong", "signature"),
        ("other algorithm", #"{"alg":"RS256"}"#, #"{"sub":"x","exp":EXP}"#, "right", "no key here"),
        ("no sub", #"{"alg":"HS256"}"#, #"{"exp":EXP}"#, "right", "'sub'"),
        ("bad sub", #"{"alg":"HS256"}"#, #"{"sub":"a:b","exp":EXP}"#, "right", "'sub'"),
        ("no exp", #"{"alg":"HS256"}"#, #"{"sub":"x"}"#, "right", "'exp'"),
        ("expired", #"{"alg":"HS256"}"#, #"{"sub":"x","exp":PAST}"#, "right", "expired"),
        ("not yet valid", #"{"alg":"HS256"}"#, #"{"sub":"x","exp":EXP,"nbf":EXP}"#, "right", "'nbf'"),
        ("bad rooms", #"{"alg":"HS256"}"#, #"{"sub":"x","exp":EXP,"rooms":["a b"]}"#, "right", "'rooms'"),
        // Found by Scripts/fuzz.sh (token): a time past Int64 milliseconds trapped the server.
        ("exp out of range", #"{"alg":"HS256"}"#, #"{"sub":"x","exp":1e30}"#, "right", "'exp'"),
        ("nbf out of range", #"{"alg":"HS256"}"#, #"{"sub":"x","exp":EXP,"nbf":-1e300}"#, "right", "'nbf'"),
        ("iat out of range", #"{"alg":"HS256"}"#, #"{"sub":"x","exp":EXP,"iat":1e300}"#, "right", "'iat'"),
        // RFC 7515's critical extensions, not understood here, were ignored and the token accepted.
        ("critical extension", #"{"alg":"HS256","crit":["exp-policy"],"exp-policy":1}"#, #"{"sub":"x","exp":EXP}"#, "right", "'crit'"),
        ("malformed crit", #"{"alg":"HS256","crit":7}"#, #"{"sub":"x","exp":EXP}"#, "right", "'crit'"),
        ("sub a number", #"{"alg":"HS256"}"#, #"{"sub":5,"exp":EXP}"#, "right", "claims can be read"),
    ])
    func forgeriesAreRefusedWithTheirReason(_ name: String, _ header: String, _ claims: String, _ key: String, _ reason: String) throws {
        let claims = claims.replacingOccurrences(of: "EXP", with: "\(now / 1000 + 600)")
            .replacingOccurrences(of: "PAST", with: "\(now / 1000 - 1)")
        let signingKey: [UInt8]? = switch key {
        case "none": nil
        case "wrong": Array("not the secret".utf8)
        default: Array("backend secret, thirty-two bytes or more".utf8)
        }
        let forged = token(header: header, claims: claims, key: signingKey)
        do {
            _ = try verifier().verify(forged, now: now)
            Issue.record("\(name) was accepted")
        } catch let error as SwitchboardError {
            #expect(error.code == "invalid_token", "\(name)")
            #expect(error.message.contains(reason), "\(name): \(error.message)")
            #expect(!error.message.contains(forged), "the message must not quote the token")
        } catch {
            Issue.record("\(name): \(error)")
        }
    }

    @Test func garbageIsNotAToken() throws {
        #expect(throws: SwitchboardError.invalidToken("it is not a JWT whose claims can be read (three base64url parts: header, claims, "
                                                          + "signature; 'sub' a string, 'exp', 'nbf' and 'iat' numbers)")) {
            try verifier().verify("not-a-token", now: now)
        }
    }

    @Test func aShortSecretIsRefusedAtStart() {
        #expect(throws: TokenKeyError.self) { try TokenKeys.load(serverKey: serverKey, secret: "short") }
    }

    @Test func passwordsAreHashedAndChecked() {
        let hasher = PasswordHasher(cost: 4)
        let hash = hasher.hash("correct horse")
        #expect(!hash.contains("correct horse"))
        #expect(hasher.verify("correct horse", against: hash))
        #expect(!hasher.verify("wrong horse", against: hash))
    }

    /// bcrypt reads 72 bytes at most and stops at a NUL: both passwords
    /// below were accepted with only their beginning.
    @Test func everyByteOfAPasswordCounts() {
        let hasher = PasswordHasher(cost: 4)
        let long = String(repeating: "A", count: 72)
        let hash = hasher.hash(long + "one")
        #expect(hasher.verify(long + "one", against: hash))
        #expect(!hasher.verify(long + "two", against: hash))
        #expect(!hasher.verify(long, against: hash))
        let withNUL = hasher.hash("password1\u{0}secret")
        #expect(hasher.verify("password1\u{0}secret", against: withNUL))
        #expect(!hasher.verify("password1", against: withNUL))
        // An account from before keeps its password: bcrypt over the password itself.
        let before = Bcrypt.hash("correct horse", cost: 4)
        #expect(hasher.verify("correct horse", against: before) && !hasher.verify("wrong horse", against: before))
        #expect(!hasher.verify("anything", against: hasher.decoy))
    }
}
