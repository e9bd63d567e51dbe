import MicroHTTPD
import SwitchboardCore

/// Everything the HTTP side of Switchboard is configured with.
public struct HTTPServerConfiguration: Sendable {
    /// Listening, threads and connection limits of libmicrohttpd.
    public var daemon: HTTPDaemonConfiguration
    /// Limits on names and text.
    public var limits: MessageLimits
    /// Seconds between SSE keepalive comments (also how vanished clients are found).
    public var keepaliveSeconds: Double
    /// The `retry:` sent at the start of every SSE stream, in milliseconds.
    public var sseRetryMilliseconds: Int
    /// How long shutdown waits for open streams and long-polls to finish.
    public var shutdownGraceSeconds: Double
    /// The web client's files (`GET /` and friends); nil serves none.
    public var publicFiles: StaticFiles?
    /// The Bearer token of `/api/admin/`.
    public var adminToken: String

    public init(daemon: HTTPDaemonConfiguration = HTTPDaemonConfiguration(),
                limits: MessageLimits = MessageLimits(),
                keepaliveSeconds: Double = 15,
                sseRetryMilliseconds: Int = 2000,
                shutdownGraceSeconds: Double = 5,
                publicFiles: StaticFiles? = nil,
                adminToken: String = AdminToken.generate()) {
        self.daemon = daemon
        self.limits = limits
        self.keepaliveSeconds = keepaliveSeconds
        self.sseRetryMilliseconds = sseRetryMilliseconds
        self.shutdownGraceSeconds = shutdownGraceSeconds
        self.publicFiles = publicFiles
        self.adminToken = adminToken
    }
}
