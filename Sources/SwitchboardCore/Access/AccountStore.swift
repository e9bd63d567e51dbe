/// Where accounts, bans, revoked sessions and the server's signing key are
/// kept: the same database as the messages, so that every node on it sees
/// them. Called off the request threads (registration and sign-in hash
/// passwords anyway) and at start; never per message.
public protocol AccountStore: Sendable {
    /// Registers `user`; false if the name (in any case) is taken.
    func createAccount(_ user: String, passwordHash: String, created: Int64) throws -> Bool
    /// The stored hash of `user`'s password, or nil for no such account.
    func passwordHash(of user: String) throws -> String?
    /// Every account, oldest first.
    func accounts() throws -> [Account]
    /// Bans `user` until `until` (ms since the epoch), or lifts the ban (nil).
    func setBan(_ user: String, until: Int64?) throws
    /// Every ban stored: user → end.
    func bans() throws -> [String: Int64]
    /// Refuses the token with `key` until `expires`.
    func revoke(_ key: String, expires: Int64) throws
    /// Revoked tokens that have not expired by `now`: key → expiry.
    func revocations(now: Int64) throws -> [String: Int64]
    /// The server's own signing key: `candidate` is stored if there is none
    /// yet; the stored one is returned (so every node on a database agrees).
    func signingKey(candidate: [UInt8]) throws -> [UInt8]
}
