import SwitchboardCore

/// How WebSocket connections behave.
public struct WebSocketConfiguration: Sendable {
    /// Largest message a client may send (after reassembling fragments): 1009 past it.
    public var maxMessageBytes: Int
    /// Most fragments one message may come in: 1002 past it.
    public static let maxFragments = 1024
    /// Seconds between the server's ping frames; a client that has not
    /// answered one by the next is closed.
    public var keepaliveSeconds: Double
    /// Most of one client's publishes waiting to be stored before its socket
    /// is read no further (back-pressure).
    public var maxPendingStores: Int
    /// Most WebSocket connections at once (libmicrohttpd no longer counts
    /// upgraded sockets, so the server caps them itself).
    public var maxConnections: Int
    /// Serve the test-only echo endpoint `/api/test/ws-echo` (for Autobahn|Testsuite).
    public var echo: Bool
    /// Limits on names and text.
    public var limits: MessageLimits

    public init(maxMessageBytes: Int = 64 * 1024, keepaliveSeconds: Double = 15, maxPendingStores: Int = 32,
                maxConnections: Int = 10_000, echo: Bool = false, limits: MessageLimits = MessageLimits()) {
        self.maxMessageBytes = maxMessageBytes
        self.keepaliveSeconds = keepaliveSeconds
        self.maxPendingStores = maxPendingStores
        self.maxConnections = maxConnections
        self.echo = echo
        self.limits = limits
    }
}
