/// Turns a presented token into its claims, or refuses it with
/// ``SwitchboardError/invalidToken(_:)`` saying why. Checks the signature and
/// the time claims; revocations and bans are ``AccessControl``'s. The JWT
/// implementation is in SwitchboardAuth; tests may use their own.
public protocol TokenVerifier: Sendable {
    /// The claims of a valid token at `now` (ms since the epoch).
    func verify(_ token: String, now: Int64) throws(SwitchboardError) -> TokenClaims
}
