/// The refusals of identity and access (SPEC "Identity and access"). Their
/// messages never quote a token or a password.
extension SwitchboardError {
    /// No token where one is needed (`--auth required`, or an account's own endpoint).
    public static let unauthorized = unauthorized(
        "Sign in first: send 'Authorization: Bearer TOKEN', ?access_token=TOKEN or the session cookie.")
    /// No signed-in user where one is needed: conversations, `/api/me`,
    /// uploads, push subscriptions (a guest's name and the admin's token
    /// have no account behind them).
    public static let signInRequired = unauthorized(
        "This is for signed-in users: sign in to an account first (a guest or the admin token has none).")
    /// `unauthorized` (401, `WWW-Authenticate: Bearer`) saying what was needed: every such refusal is made here.
    public static func unauthorized(_ message: String) -> SwitchboardError {
        SwitchboardError(.unauthenticated, code: "unauthorized", message: message)
    }
    /// A token that cannot be accepted; `reason` says why, without the token.
    public static func invalidToken(_ reason: String) -> SwitchboardError {
        SwitchboardError(.unauthenticated, code: "invalid_token", message: "The token is not accepted: \(reason).")
    }
    /// A wrong password or an unknown user: the same answer for both.
    public static let badCredentials = SwitchboardError(
        .unauthenticated, code: "bad_credentials", message: "Wrong user name or password.")
    /// A token's or a connection's user named someone else.
    public static func notYourName(_ user: String) -> SwitchboardError {
        SwitchboardError(.forbidden, code: "not_your_name", message: "You are signed in as '\(user)'; you cannot speak as someone else.")
    }
    /// A registered name used without its owner's token.
    public static func nameReserved(_ user: String) -> SwitchboardError {
        SwitchboardError(.forbidden, code: "name_reserved",
                         message: "The name '\(user)' belongs to a registered user; sign in to use it.")
    }
    /// A room outside the token's `rooms` claim.
    public static func roomForbidden(_ room: String) -> SwitchboardError {
        SwitchboardError(.forbidden, code: "forbidden", message: "This token does not give access to room '\(room)'.")
    }
    /// Every room asked for by a token limited to some.
    public static let allRoomsForbidden = SwitchboardError(
        .forbidden, code: "forbidden", message: "This token gives access to some rooms only; name them with ?rooms=a,b.")
    /// A banned user, until `untilMilliseconds`.
    public static func banned(until untilMilliseconds: Int64) -> SwitchboardError {
        SwitchboardError(.forbidden, code: "banned", message: "This user is banned until \(untilMilliseconds) (ms since the epoch).")
    }
    /// Over the publish rate; try again after `seconds`.
    public static func rateLimited(retryAfter seconds: Int) -> SwitchboardError {
        SwitchboardError(.rateLimited, code: "rate_limited", message: "Too many messages; try again in \(seconds) s.",
                         retryAfterSeconds: seconds)
    }
    /// A browser request from an origin this server does not allow.
    public static let originNotAllowed = SwitchboardError(
        .forbidden, code: "origin_not_allowed", message: "Requests from this page's origin are not allowed here.")
    /// A registration of a name someone has.
    public static let nameTaken = SwitchboardError(.conflict, code: "name_taken", message: "That name is registered already.")
    /// A registration while registration is closed to the public.
    public static let registrationClosed = SwitchboardError(
        .forbidden, code: "registration_closed", message: "Accounts are created by an administrator on this server.")
    /// A token that ran out while its connection was open.
    public static let tokenExpired = SwitchboardError(.unauthenticated, code: "token_expired", message: "The token has expired; sign in again.")
    /// A token revoked by signing out.
    public static let tokenRevoked = SwitchboardError(.unauthenticated, code: "token_revoked", message: "This session was signed out.")
    /// A conversation's room that is none yet, written or read by the admin
    /// (everyone else hears ``notAMember(_:)``, whether or not it exists).
    public static func noSuchConversation(_ room: String) -> SwitchboardError {
        SwitchboardError(.notFound, code: "no_such_conversation", message: "There is no conversation '\(room)'.")
    }
    /// A conversation's room asked for by someone not in it (or no such conversation).
    public static func notAMember(_ room: String) -> SwitchboardError {
        SwitchboardError(.forbidden, code: "not_a_member", message: "You are not a member of '\(room)'.")
    }
}
