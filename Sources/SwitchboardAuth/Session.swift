/// A signed-in session: the token to present and whose it is.
public struct Session: Sendable, Equatable {
    /// The JWT to present (Bearer, `access_token`, the cookie, `auth:`).
    public var token: String
    /// Whose it is.
    public var user: String
    /// When it expires, ms since the epoch.
    public var expires: Int64
}
