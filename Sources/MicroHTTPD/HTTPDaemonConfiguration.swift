/// How an ``HTTPDaemon`` listens and what it allows per connection.
public struct HTTPDaemonConfiguration: Sendable {
    /// Address to bind: an IPv4 or IPv6 literal (e.g. `127.0.0.1`, `::1`).
    public var host: String
    /// Port to bind; 0 picks a free one (read it back from ``HTTPDaemon/port``).
    public var port: UInt16
    /// Workers: each a daemon of its own run by a ``DaemonLoop`` thread
    /// (an epoll loop), all accepting on one listening socket, each serving
    /// the connections it accepted. Defaults to the core count.
    public var threadPoolSize: Int
    /// Maximum simultaneous connections, shared out among the workers
    /// (libmicrohttpd silently defaults to 1,020).
    public var connectionLimit: Int
    /// Seconds of inactivity after which a connection is closed (0 = never).
    /// Suspended connections never time out; this catches stalled readers and
    /// half-sent requests.
    public var connectionTimeout: Int
    /// Backlog of the listening socket.
    public var listenBacklog: Int
    /// Largest request body accepted, in bytes. Bigger bodies get
    /// ``HTTPExchange/bodyTooLarge`` set and are never buffered past the limit.
    public var maxBodyBytes: Int
    /// Memory pool per connection (request headers and response buffer).
    public var connectionMemoryLimit: Int
    /// How much of a streamed body refused part-way, or of a chunked body
    /// past ``maxBodyBytes``, is still read (and thrown away) so that its
    /// answer can be sent; past it the connection
    /// is closed with no answer. (libmicrohttpd sends no answer before a
    /// body has ended.)
    public var maxDiscardedBodyBytes: Int = 32 * 1_048_576
    /// Most exchanges resumed at once by ``HTTPExchange/resumeInTurn()``.
    public var resumeBatchSize: Int = 256
    /// Most query parameters a request may have: more are answered 414
    /// (see ``HTTPRequest/tooManyParameters``) instead of filling the
    /// connection's memory.
    public var maxQueryParameters: Int = 64
    /// Called on each worker's thread (``DaemonLoop``): once before its
    /// first pass, after every pass, and once when it ends.
    public var passes: DaemonPasses?
    /// Receives libmicrohttpd's own diagnostics (bind failures, accept errors...).
    public var log: (@Sendable (String) -> Void)?
    /// Serve HTTPS with these; nil serves plain HTTP.
    public var tls: TLSCredentials?
    /// Asked about every connection by its client's address (a limit per
    /// address); nil: every connection is taken, up to ``connectionLimit``.
    public var admission: (any ConnectionAdmission)?

    /// A configuration with defaults suited to many long-lived connections.
    public init(
        host: String = "127.0.0.1",
        port: UInt16 = 8080,
        threadPoolSize: Int = HTTPDaemonConfiguration.coreCount,
        connectionLimit: Int = 10_000,
        connectionTimeout: Int = 120,
        listenBacklog: Int = 4096,
        maxBodyBytes: Int = 64 * 1024,
        connectionMemoryLimit: Int = 12 * 1024,
        log: (@Sendable (String) -> Void)? = nil
    ) {
        self.host = host
        self.port = port
        self.threadPoolSize = threadPoolSize
        self.connectionLimit = connectionLimit
        self.connectionTimeout = connectionTimeout
        self.listenBacklog = listenBacklog
        self.maxBodyBytes = maxBodyBytes
        self.connectionMemoryLimit = connectionMemoryLimit
        self.log = log
    }

    /// Number of online processors, at least 1.
    public static var coreCount: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
