import Crypto
import Foundation
import JWTKit
import Synchronization
import SwitchboardCore

/// Checks JWTs (RFC 7519) with jwt-kit: the signature with a key for the
/// header's algorithm (never `none`, no `crit` extensions), then `sub`, `exp`, `nbf`, `iat` and
/// `rooms`, each refusal naming its reason. Tokens that passed are
/// remembered (at most ``cacheLimit``), so a client presenting the same
/// token on every poll pays for its signature once; their time claims are
/// checked again at every use.
public final class JWTTokenVerifier: TokenVerifier {
    /// Most verified tokens remembered.
    public static let cacheLimit = 4096
    /// How far in the future `iat` may be (clocks differ a little).
    public static let clockSkewMilliseconds: Int64 = 60_000

    private let keys: TokenKeys
    private let limits: MessageLimits
    private let verified = Mutex([String: TokenPayload]())

    public init(keys: TokenKeys, limits: MessageLimits = MessageLimits()) {
        self.keys = keys
        self.limits = limits
    }

    public func verify(_ token: String, now: Int64) throws(SwitchboardError) -> TokenClaims {
        let payload: TokenPayload
        if let known = verified.withLock({ $0[token] }) {
            payload = known
        } else {
            payload = try checkSignature(token)
            verified.withLock { cache in
                if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
                cache[token] = payload
            }
        }
        return try claims(payload, token: token, now: now)
    }

    private func checkSignature(_ token: String) throws(SwitchboardError) -> TokenPayload {
        let header: JWTHeader
        do {
            header = try DefaultJWTParser().parse(Array(token.utf8), as: TokenPayload.self).header
        } catch {
            throw .invalidToken("it is not a JWT whose claims can be read (three base64url parts: header, claims, "
                                    + "signature; 'sub' a string, 'exp', 'nbf' and 'iat' numbers)")
        }
        // RFC 7515, 4.1.11: extensions listed as critical that are not understood (none is here) refuse the token.
        guard header[dynamicMember: "crit"] == nil else {
            throw .invalidToken("its header lists critical extensions ('crit'), and this server understands none")
        }
        guard let algorithm = header.alg, algorithm.lowercased() != "none" else {
            throw .invalidToken("unsigned tokens (alg 'none') are never accepted")
        }
        guard let candidates = keys.byAlgorithm[algorithm] else {
            throw .invalidToken("no key here is for algorithm '\(algorithm.prefix(16))' (accepted: \(keys.algorithms.joined(separator: ", ")))")
        }
        for keys in candidates {
            if let payload = try? blocking({ try await keys.verify(token, as: TokenPayload.self) }) { return payload }
        }
        throw .invalidToken("the signature does not match")
    }

    private func claims(_ payload: TokenPayload, token: String, now: Int64) throws(SwitchboardError) -> TokenClaims {
        guard let subject = payload.sub?.value else { throw .invalidToken("it has no 'sub' claim (the user name)") }
        guard let user = try? limits.validUser(subject), user == subject else {
            throw .invalidToken("its 'sub' claim is not a valid user name")
        }
        guard let expiry = payload.exp?.value else { throw .invalidToken("it has no 'exp' claim") }
        let expires = try Self.milliseconds(expiry, claim: "exp")
        guard expires > now else { throw .invalidToken("it expired at \(expires) (ms since the epoch)") }
        if let date = payload.nbf?.value {
            let notBefore = try Self.milliseconds(date, claim: "nbf")
            if notBefore > now { throw .invalidToken("it is not valid before \(notBefore) (its 'nbf')") }
        }
        if let date = payload.iat?.value, try Self.milliseconds(date, claim: "iat") > now + Self.clockSkewMilliseconds {
            throw .invalidToken("it was issued in the future (its 'iat')")
        }
        var grant = RoomGrant.all
        if let rooms = payload.rooms {
            for entry in rooms {
                let name = entry.hasSuffix("*") ? String(entry.dropLast()) : entry
                guard name.isEmpty && entry == "*" || (try? limits.validRoom(name)) != nil else {
                    throw .invalidToken("its 'rooms' claim has an entry that is neither a room nor a prefix ending in '*'")
                }
            }
            grant = RoomGrant(rooms)
        }
        let key = payload.jti?.value ?? Self.digest(token)
        return TokenClaims(user: user, expires: expires, rooms: grant, revocationKey: key)
    }

    /// A time claim in ms since the epoch; refused when that is not an
    /// Int64 (a claim of 1e30 seconds would otherwise trap).
    static func milliseconds(_ date: Date, claim: String) throws(SwitchboardError) -> Int64 {
        guard let milliseconds = Int64(exactly: (date.timeIntervalSince1970 * 1000).rounded(.down)) else {
            throw .invalidToken("its '\(claim)' claim is not a time in range")
        }
        return milliseconds
    }

    /// What revokes a token without a `jti`: the SHA-256 of the token, in hex.
    static func digest(_ token: String) -> String {
        "sha256:" + SHA256.hash(data: Array(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
