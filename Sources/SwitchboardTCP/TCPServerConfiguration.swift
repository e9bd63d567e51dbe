import SwitchboardCore

/// How the raw TCP listener listens and what it allows per connection.
public struct TCPServerConfiguration: Sendable {
    /// Address to bind (IPv4 or IPv6 literal).
    public var host: String
    /// Port to bind; 0 picks a free one.
    public var port: Int
    /// Quiet time after which an unterminated command counts as complete
    /// (the DogeChat app sends commands without a newline).
    public var flushMilliseconds: Int
    /// Longest command line accepted.
    public var maxLineBytes: Int
    /// Most bytes queued for one client beyond what its socket holds; past
    /// that the client is disconnected rather than allowed to grow memory.
    public var maxQueuedBytes: Int
    /// Limits on names and text.
    public var limits: MessageLimits

    public init(host: String = "127.0.0.1", port: Int = 8081, flushMilliseconds: Int = 50,
                maxLineBytes: Int = 8192, maxQueuedBytes: Int = 256 * 1024, limits: MessageLimits = MessageLimits()) {
        self.host = host
        self.port = port
        self.flushMilliseconds = flushMilliseconds
        self.maxLineBytes = maxLineBytes
        self.maxQueuedBytes = maxQueuedBytes
        self.limits = limits
    }
}
