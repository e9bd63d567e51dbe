import SwitchboardCore

/// Takes over sockets upgraded to WebSocket (the `SwitchboardWebSocket`
/// module's server): after the `101`, the frames are its business.
public protocol WebSocketAcceptor: Sendable {
    /// Adopts an upgraded socket: `descriptor` is the receiver's to close;
    /// `bytesAlreadyRead` are the first bytes of the frame stream.
    func accept(descriptor: Int32, bytesAlreadyRead: [UInt8], request: WebSocketRequest)
}

/// What a WebSocket asked for in its handshake, validated before the `101`.
public struct WebSocketRequest: Sendable {
    /// The rooms it follows.
    public var filter: RoomFilter
    /// The cursor to deliver after: `?since=`, or the last id at the handshake (live only).
    public var cursor: Int64
    /// `?user=`: present in its rooms while open, and the default sender.
    public var user: String?
    /// The test-only echo endpoint (`--websocket-echo`, for Autobahn|Testsuite):
    /// every text and binary message is sent back, nothing else happens.
    public var echo: Bool

    public init(filter: RoomFilter, cursor: Int64, user: String?, echo: Bool = false) {
        self.filter = filter
        self.cursor = cursor
        self.user = user
        self.echo = echo
    }
}
