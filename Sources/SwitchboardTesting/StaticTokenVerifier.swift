import SwitchboardCore

/// A token verifier for unit tests: knows a fixed table of tokens and
/// their claims, refuses anything else. (The real one, with signatures, is
/// SwitchboardAuth's `JWTTokenVerifier`; integration tests use it.)
public struct StaticTokenVerifier: TokenVerifier {
    private let tokens: [String: TokenClaims]

    public init(_ tokens: [String: TokenClaims]) {
        self.tokens = tokens
    }

    public func verify(_ token: String, now: Int64) throws(SwitchboardError) -> TokenClaims {
        guard let claims = tokens[token] else { throw .invalidToken("the signature does not match") }
        guard claims.expires > now else { throw .invalidToken("it expired") }
        return claims
    }
}
