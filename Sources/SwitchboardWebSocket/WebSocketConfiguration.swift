import SwitchboardCore

/// How WebSocket connections behave.
public struct WebSocketConfiguration: Sendable {
    /// Largest message a client may send (after reassembling fragments): 1009 past it.
    public var maxMessageBytes: Int
    /// Seconds between the server's ping frames; a client that has not
    /// answered one by the next is closed.
    public var keepaliveSeconds: Double
    /// Most of one client's publishes waiting to be stored before its socket
    /// is read no further (back-pressure).
    public var maxPendingStores: Int
    /// Limits on names and text.
    public var limits: MessageLimits

    public init(maxMessageBytes: Int = 64 * 1024, keepaliveSeconds: Double = 15, maxPendingStores: Int = 32,
                limits: MessageLimits = MessageLimits()) {
        self.maxMessageBytes = maxMessageBytes
        self.keepaliveSeconds = keepaliveSeconds
        self.maxPendingStores = maxPendingStores
        self.limits = limits
    }
}
