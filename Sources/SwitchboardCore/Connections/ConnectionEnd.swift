/// Why the server closes an open connection: each transport says it its own
/// way (a WebSocket close code and reason, a TCP `error:` line, the end of an
/// SSE stream).
public enum ConnectionEnd: Sendable, Equatable {
    /// An administrator kicked the user.
    case kicked
    /// An administrator banned the user.
    case banned
    /// The connection's token expired.
    case tokenExpired
    /// The connection's token was revoked (its session signed out).
    case tokenRevoked
    /// Its user is no longer a member of the conversation the connection
    /// follows (removed, or left). Raw TCP is not closed: it moves to `lobby`.
    case removed(room: String)

    /// The stable code a client sees (`error:CODE` on raw TCP).
    public var code: String {
        switch self {
        case .kicked: return "kicked"
        case .banned: return "banned"
        case .tokenExpired: return "token_expired"
        case .tokenRevoked: return "token_revoked"
        case .removed: return "not_a_member"
        }
    }

    /// The refusal a request still open gets (a long poll's answer).
    public var error: SwitchboardError {
        switch self {
        case .kicked: return SwitchboardError(.forbidden, code: "kicked", message: "An administrator closed this user's connections.")
        case .banned: return SwitchboardError(.forbidden, code: "banned", message: "An administrator banned this user.")
        case .tokenExpired: return .tokenExpired
        case .tokenRevoked: return .tokenRevoked
        case .removed(let room): return .notAMember(room)
        }
    }
}
