import Foundation
import JWTKit
import Synchronization

/// Signs the `Authorization: vapid t=…, k=…` header for a push service's
/// origin (ES256 by jwt-kit), and reuses a token for an origin until an
/// hour before it runs out, so a thousand pushes to one service sign once.
public final class VAPIDSigner: Sendable {
    private let key: VAPIDKey
    private let keys = Mutex<JWTKeyCollection?>(nil)
    private let publicKey: String
    private let subject: String
    private let lifetime: Int
    private let clock: @Sendable () -> Int
    private let cache = Mutex<[String: (header: String, expires: Int)]>([:])

    /// - Parameters:
    ///   - key: the server's VAPID key.
    ///   - subject: `--vapid-subject`, a `mailto:` or `https:` contact for push services.
    ///   - lifetime: seconds a token is valid (RFC 8292: at most a day).
    ///   - clock: seconds since 1970 (tests move it).
    public init(key: VAPIDKey, subject: String, lifetime: Int = 12 * 3600,
                clock: @escaping @Sendable () -> Int = { Int(Date().timeIntervalSince1970) }) {
        self.key = key
        publicKey = key.publicKeyBase64URL
        self.subject = subject
        self.lifetime = min(lifetime, 24 * 3600)
        self.clock = clock
    }

    /// The `Authorization` header's value for a push to `audience` (the endpoint's origin).
    public func authorization(for audience: String) async throws -> String {
        let now = clock()
        if let cached = cache.withLock({ $0[audience] }), cached.expires - 3600 > now { return cached.header }
        let claims = VAPIDClaims(aud: audience, exp: now + lifetime, sub: subject)
        let token = try await collection().sign(claims, header: ["typ": "JWT"])
        let header = "vapid t=\(token), k=\(publicKey)"
        cache.withLock { $0[audience] = (header, now + lifetime) }
        return header
    }

    /// jwt-kit's key collection (an actor, so made on the first signature rather than at start-up).
    private func collection() async throws -> JWTKeyCollection {
        if let made = keys.withLock({ $0 }) { return made }
        let made = await JWTKeyCollection().add(ecdsa: try ES256PrivateKey(backing: key.privateKey))
        keys.withLock { $0 = $0 ?? made }
        return made
    }
}
