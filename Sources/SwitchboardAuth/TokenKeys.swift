import Foundation
import JWTKit

/// The keys tokens are checked with: the server's own (HS256, stored in the
/// database so that every node has it; it signs the sessions the server
/// mints), and an application backend's, `--jwt-secret` (HS256) and
/// `--jwt-public-key` (a PEM file: RS256 or ES256).
public struct TokenKeys: Sendable {
    /// Keys by the one algorithm each checks.
    let byAlgorithm: [String: [JWTKeyCollection]]
    /// The server's own key, which signs sessions.
    let session: JWTKeyCollection

    /// - Parameters:
    ///   - serverKey: the server's own HS256 key (32 random bytes, from the store).
    ///   - secret: `--jwt-secret`, if given.
    ///   - publicKeyPEM: the contents of `--jwt-public-key`, if given.
    /// - Throws: ``TokenKeyError`` when the secret is shorter than 32 bytes,
    ///   or the PEM is neither an RSA nor a P-256 public key.
    public init(serverKey: [UInt8], secret: String? = nil, publicKeyPEM: String? = nil) async throws {
        let session = await JWTKeyCollection().add(hmac: HMACKey(from: serverKey), digestAlgorithm: .sha256)
        var byAlgorithm = ["HS256": [session]]
        if let secret {
            // RFC 7518 3.2: an HS256 key at least as long as the hash.
            guard secret.utf8.count >= 32 else { throw TokenKeyError(reason: "an HS256 secret must be at least 32 bytes") }
            byAlgorithm["HS256"]!.append(await JWTKeyCollection().add(hmac: HMACKey(from: Array(secret.utf8)), digestAlgorithm: .sha256))
        }
        if let publicKeyPEM {
            if let key = try? Insecure.RSA.PublicKey(pem: publicKeyPEM) {
                byAlgorithm["RS256"] = [await JWTKeyCollection().add(rsa: key, digestAlgorithm: .sha256)]
            } else if let key = try? ES256PublicKey(pem: publicKeyPEM) {
                byAlgorithm["ES256"] = [await JWTKeyCollection().add(ecdsa: key)]
            } else {
                throw TokenKeyError(reason: "not an RSA or P-256 (ES256) public key in PEM form")
            }
        }
        self.byAlgorithm = byAlgorithm
        self.session = session
    }

    /// The algorithms a token may be signed with here.
    public var algorithms: [String] { byAlgorithm.keys.sorted() }
}

/// A key that cannot be used, and why.
public struct TokenKeyError: Error, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}

extension TokenKeys {
    /// ``init(serverKey:secret:publicKeyPEM:)`` for a caller that is not
    /// async (start-up).
    public static func load(serverKey: [UInt8], secret: String? = nil, publicKeyPEM: String? = nil) throws -> TokenKeys {
        try blocking { try await TokenKeys(serverKey: serverKey, secret: secret, publicKeyPEM: publicKeyPEM) }
    }
}
