import NIOSSL
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
    /// that, delivery to it pauses at its cursor (it catches up from the
    /// store once it reads) and its commands are read no further.
    public var maxQueuedBytes: Int
    /// Most of one client's commands waiting to be stored; past that the
    /// server stops reading from it until they drain (back-pressure).
    public var maxPendingStores: Int
    /// TCP keepalive: seconds of silence before the first probe, seconds
    /// between probes, and probes unanswered before the peer counts as gone
    /// (by default a vanished peer is noticed within 60 + 6 × 10 = 120 s).
    public var keepaliveIdleSeconds: Int
    public var keepaliveIntervalSeconds: Int
    public var keepaliveProbes: Int
    /// Seconds without a byte from the client after which it is disconnected
    /// (for clients that send `ping:`); nil for never.
    public var idleTimeoutSeconds: Int?
    /// Serve the line protocol over TLS with this context (`--tcp-tls`); nil: plain.
    public var tls: NIOSSLContext?
    /// Limits on names and text.
    public var limits: MessageLimits
    /// What an attachment's path is put after in a line (`[photo BASE/api/media/ID]`):
    /// the HTTP side's address, e.g. `http://127.0.0.1:8080`. Set by the server.
    public var mediaBaseURL = ""

    public init(host: String = "127.0.0.1", port: Int = 8081, flushMilliseconds: Int = 50,
                maxLineBytes: Int = 8192, maxQueuedBytes: Int = 256 * 1024, maxPendingStores: Int = 32,
                keepaliveIdleSeconds: Int = 60, keepaliveIntervalSeconds: Int = 10, keepaliveProbes: Int = 6,
                idleTimeoutSeconds: Int? = nil, limits: MessageLimits = MessageLimits()) {
        self.host = host
        self.port = port
        self.flushMilliseconds = flushMilliseconds
        self.maxLineBytes = maxLineBytes
        self.maxQueuedBytes = maxQueuedBytes
        self.maxPendingStores = maxPendingStores
        self.keepaliveIdleSeconds = keepaliveIdleSeconds
        self.keepaliveIntervalSeconds = keepaliveIntervalSeconds
        self.keepaliveProbes = keepaliveProbes
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.limits = limits
    }
}
