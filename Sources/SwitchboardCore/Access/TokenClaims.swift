/// What a verified token says: who it is for, until when, and which rooms.
public struct TokenClaims: Sendable, Equatable {
    /// The `sub` claim: the user name (already a valid name).
    public var user: String
    /// The `exp` claim, in milliseconds since the epoch.
    public var expires: Int64
    /// The `rooms` claim (``RoomGrant/all`` when absent).
    public var rooms: RoomGrant
    /// What revokes this token: its `jti`, or a digest of the token when it has none.
    public var revocationKey: String

    public init(user: String, expires: Int64, rooms: RoomGrant = .all, revocationKey: String) {
        self.user = user
        self.expires = expires
        self.rooms = rooms
        self.revocationKey = revocationKey
    }
}
