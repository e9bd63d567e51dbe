import MicroHTTPD
import SwitchboardCore

/// Everything the HTTP side of Switchboard is configured with.
public struct HTTPServerConfiguration: Sendable {
    /// Address to bind: an IPv4 or IPv6 literal (e.g. `127.0.0.1`, `::1`).
    public var host: String
    /// Port to bind; 0 picks a free one.
    public var port: UInt16
    /// libmicrohttpd worker threads, each with its own epoll loop
    /// (default ``defaultThreads``).
    public var threads: Int
    /// Most simultaneous connections.
    public var maxConnections: Int
    /// Connections counted by client address, each held to its limit (one
    /// count shared with the other listeners); nil: no limit per address.
    public var connectionsPerAddress: ConnectionsPerAddress?
    /// Seconds of inactivity after which a stalled connection is closed (0: never).
    public var idleTimeoutSeconds: Int
    /// Largest request body accepted, in bytes.
    public var maxBodyBytes: Int
    /// libmicrohttpd's memory pool per connection: the request line and
    /// headers (cookies included) must fit in about half of it, and it is
    /// most of an idle stream's memory (see docs/BENCHMARKS.md).
    public var connectionMemoryBytes: Int
    /// Most streams and long polls resumed at once when a message wakes them
    /// (a turn of a worker's `DaemonLoop`, in the MicroHTTPD module): a
    /// worker serves what else came in (a publish's 201) between turns.
    public var wakeBatch: Int
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
    /// The raw TCP listener's bound port, shown by `/healthz` (set by the
    /// server that runs both); nil when there is none.
    public var lineProtocolPort: Int?
    /// Other sites whose pages may use this server (`--allowed-origin`).
    public var allowedOrigins: [String]
    /// The URL users reach the server at (`--public-url`): its host is the
    /// server's name, and a request for any other name is refused (421).
    public var publicURL: String?
    /// Whether the session cookie is marked `Secure` (served over TLS).
    public var secureCookies: Bool
    /// Serve HTTPS (and wss) with this certificate and key; nil: plain HTTP.
    public var tls: TLSCredentials? {
        didSet { if tls != nil { secureCookies = true } }
    }

    public init(host: String = "127.0.0.1", port: UInt16 = 8080,
                threads: Int = HTTPServerConfiguration.defaultThreads,
                maxConnections: Int = 10_000,
                idleTimeoutSeconds: Int = 120,
                maxBodyBytes: Int = 64 * 1024,
                connectionMemoryBytes: Int = 12 * 1024,
                wakeBatch: Int = 256,
                limits: MessageLimits = MessageLimits(),
                keepaliveSeconds: Double = 15,
                sseRetryMilliseconds: Int = 2000,
                shutdownGraceSeconds: Double = 5,
                publicFiles: StaticFiles? = nil,
                adminToken: String = AdminToken.generate(),
                allowedOrigins: [String] = [], secureCookies: Bool = false) {
        self.host = host
        self.port = port
        self.threads = threads
        self.maxConnections = maxConnections
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.maxBodyBytes = maxBodyBytes
        self.connectionMemoryBytes = connectionMemoryBytes
        self.wakeBatch = wakeBatch
        self.limits = limits
        self.keepaliveSeconds = keepaliveSeconds
        self.sseRetryMilliseconds = sseRetryMilliseconds
        self.shutdownGraceSeconds = shutdownGraceSeconds
        self.publicFiles = publicFiles
        self.adminToken = adminToken
        self.allowedOrigins = allowedOrigins
        self.secureCookies = secureCookies
    }

    /// libmicrohttpd workers unless told: one per core but one, at least
    /// one. The core left over is the commit thread's,
    /// the event loops' (WebSocket, raw TCP) and the kernel's network work:
    /// with a worker on every core, the workers and the commit thread
    /// preempt one another. Measured on 2 cores against 2 workers (one
    /// `Scripts/peers.sh` run each, docs/BENCHMARKS.md): long-poll CPU per
    /// delivery 1.26 times Nchan's instead of 1.49, context switches a
    /// seventh, SSE 5,000's p99 1.58 instead of 4.38, durable publishes
    /// 31,166/s instead of 28,199/s; short polls 8 % fewer a second.
    public static var defaultThreads: Int { max(1, coreCount - 1) }

    /// Number of online processors, at least 1.
    public static var coreCount: Int { HTTPDaemonConfiguration.coreCount }
}
