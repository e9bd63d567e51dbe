/// Who a request or a connection is, as ``AccessControl`` resolved it from
/// what the client presented.
public enum Identity: Sendable, Equatable {
    /// No token: may read public rooms and speak under a name nobody owns
    /// (in ``AccessMode/open``).
    case guest
    /// A valid token's user.
    case user(TokenClaims)
    /// The admin token: may do anything, speak as anyone (a backend's publish).
    case admin

    /// The name the identity itself carries (a token's user).
    public var user: String? {
        if case .user(let claims) = self { return claims.user }
        return nil
    }

    /// The token's claims, if the identity came from one.
    public var claims: TokenClaims? {
        if case .user(let claims) = self { return claims }
        return nil
    }
}
