import Foundation
import JWTKit
import SwitchboardCore

/// Mints the sessions the server gives at sign-in: HS256 with the server's
/// own key, `sub` the user, `exp` after the session lifetime, and a random
/// `jti` that sign-out revokes.
public struct SessionTokens: Sendable {
    private let keys: TokenKeys
    /// How long a session lasts, in seconds.
    public let lifetime: Double

    public init(keys: TokenKeys, lifetime: Double) {
        self.keys = keys
        self.lifetime = lifetime
    }

    /// A new session token for `user` at `now` (ms), and when it expires (ms).
    public func mint(for user: String, now: Int64) throws -> (token: String, expires: Int64) {
        let expires = now + Int64(lifetime * 1000)
        var generator = SystemRandomNumberGenerator()
        let jti = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        let payload = TokenPayload(
            sub: SubjectClaim(value: user),
            exp: ExpirationClaim(value: Date(timeIntervalSince1970: Double(expires) / 1000)),
            iat: IssuedAtClaim(value: Date(timeIntervalSince1970: Double(now / 1000))),
            jti: IDClaim(value: jti))
        let session = keys.session
        let token = try blocking { try await session.sign(payload) }
        return (token, expires)
    }
}
