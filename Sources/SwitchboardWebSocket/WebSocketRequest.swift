import SwitchboardCore

/// What a WebSocket asked for in its handshake, validated before the `101`.
struct WebSocketRequest: Sendable {
    /// The rooms it follows.
    var filter: RoomFilter
    /// The cursor to deliver after: `?since=`, or the last id at the handshake (live only).
    var cursor: Int64
    /// `?user=`: present in its rooms while open, and the default sender.
    var user: String?
    /// The test-only echo endpoint: every text and binary message is sent
    /// back, nothing else happens.
    var echo: Bool
    /// Who opened it (``AccessControl`` decided at the handshake).
    var identity: Identity
    /// The client's address: a guest's publish rate is counted by it.
    var client: String
}
