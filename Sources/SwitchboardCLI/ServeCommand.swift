import ArgumentParser
import Dispatch
import Foundation
import Logging
import MicroHTTPD
import Switchboard
import SwitchboardAuth
import SwitchboardCore
import SwitchboardHTTP
import SwitchboardTCP
import SwitchboardWebSocket

#if canImport(Glibc)
import Glibc
#endif

/// `switchboard serve`: runs every transport in one process until SIGINT/SIGTERM;
/// SIGHUP reloads the TLS certificate.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve chat over HTTP (short-poll, long-poll, Server-Sent Events) and raw TCP (the DogeChat line protocol)."
    )

    @Option(name: .long, help: "HTTP address as HOST:PORT (port 0 picks a free one).")
    var http: String = "127.0.0.1:8080"

    @Option(name: .long, help: "Raw TCP (DogeChat iam:/msg: protocol) address as HOST:PORT, or 'off'.")
    var tcp: String = "127.0.0.1:8081"

    @Option(name: .customLong("tcp-flush-ms"), help: "Quiet milliseconds after which an unterminated TCP command is complete.")
    var tcpFlushMs: Int = 50

    @Option(name: .customLong("tcp-keepalive"), help: "Seconds of silence before TCP keepalive probes a raw TCP client (then 6 probes 10 s apart: a vanished peer leaves within about 2 minutes by default).")
    var tcpKeepalive: Int = 60

    @Option(name: .customLong("tcp-idle-timeout"), help: "Disconnect a raw TCP client that sends nothing for this many seconds (for clients that send ping:); default: never.")
    var tcpIdleTimeout: Int?

    @Option(name: .long, help: "Folder of the web client served at / (default: Public/ here, or the repository's).")
    var `public`: String?

    @Option(name: .customLong("admin-token"), help: "Bearer token of the admin API (or SWITCHBOARD_ADMIN_TOKEN); generated and printed once if neither is given.")
    var adminToken: String?

    @Option(name: .long, help: "SQLite database file, :memory: for none, or postgres://USER@HOST:PORT/DB to share one database with other nodes (or SWITCHBOARD_DB). Default: switchboard.sqlite.")
    var db: String?

    @Option(name: .customLong("store-timeout"), help: "Seconds a request waits for the database before it is answered 503 store_unavailable (and /healthz says so); connections stay open.")
    var storeTimeout: Double = 5

    @Option(name: .long, help: "Seconds between SSE keepalive comments.")
    var keepalive: Double = 15

    @Option(name: .customLong("max-connections"), help: "Most simultaneous HTTP connections.")
    var maxConnections: Int = 10_000

    @Option(name: .long, help: "HTTP worker threads (each an epoll loop); default: one per core but one, at least one.")
    var threads: Int = HTTPServerConfiguration.defaultThreads

    @Option(name: .customLong("idle-timeout"), help: "Seconds before a stalled HTTP connection is closed (0: never).")
    var idleTimeout: Int = 120

    @Option(name: .customLong("max-body-bytes"), help: "Largest HTTP request body accepted.")
    var maxBodyBytes: Int = 64 * 1024

    @Option(name: .customLong("connection-memory-kib"), help: "libmicrohttpd's memory per connection in KiB (8-256): request headers must fit in about half; most of an idle stream's memory.")
    var connectionMemoryKiB: Int = 12

    @Option(name: .customLong("wake-batch"), help: "Most SSE streams and long polls resumed at once when a message wakes them; a worker serves other requests between turns.")
    var wakeBatch: Int = 256

    @Flag(name: .customLong("websocket-echo"), help: .hidden)
    var webSocketEcho = false

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    @OptionGroup(title: "Messages and conversations") var messages: MessageOptions

    @OptionGroup(title: "Identity and access") var access: AuthOptions

    @OptionGroup(title: "TLS") var tls: TLSOptions

    @OptionGroup(title: "Photos, video and voice") var media: MediaOptions

    @OptionGroup(title: "Web Push") var push: PushOptions

    @OptionGroup(title: "An application's backend") var hooks: HookOptions

    func validate() throws {
        _ = try Self.hostAndPort(http)
        if tcp != "off" { _ = try Self.hostAndPort(tcp) }
        try OptionRange.check("--tcp-flush-ms", tcpFlushMs, 1...10_000)
        // Linux takes at most 32,767 (MAX_TCP_KEEPIDLE): with more, every raw TCP client was reset as it connected.
        try OptionRange.check("--tcp-keepalive", tcpKeepalive, 1...32_767, " seconds")
        if let tcpIdleTimeout { try OptionRange.check("--tcp-idle-timeout", tcpIdleTimeout, 1...604_800, " seconds") }
        try OptionRange.check("--keepalive", keepalive, 0.001...86_400, " seconds")
        try OptionRange.check("--max-connections", maxConnections, 1...1_000_000)
        try OptionRange.check("--threads", threads, 1...256)  // each a thread, an epoll set, an eventfd and a socket: one a core helps most
        try OptionRange.check("--idle-timeout", idleTimeout, 0...604_800, " seconds")
        try OptionRange.check("--max-body-bytes", maxBodyBytes, 1...(64 << 20))
        try OptionRange.check("--wake-batch", wakeBatch, 1...65_536)
        try OptionRange.check("--connection-memory-kib", connectionMemoryKiB, 8...256)
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("Unknown --log-level \(logLevel).") }
    }

    func run() throws {
        var logger = Logger(label: "switchboard")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        signal(SIGPIPE, SIG_IGN)
        raiseOpenFileLimit(logger: logger)
        warnIfFileLimitBelow(maxConnections, logger: logger)

        let (host, port) = try Self.hostAndPort(http)
        let givenToken = adminToken ?? ProcessInfo.processInfo.environment["SWITCHBOARD_ADMIN_TOKEN"]
        let token = givenToken.flatMap { $0.isEmpty ? nil : $0 } ?? AdminToken.generate()
        let database = db ?? ProcessInfo.processInfo.environment["SWITCHBOARD_DB"].flatMap { $0.isEmpty ? nil : $0 } ?? "switchboard.sqlite"
        var configuration = ChatServerConfiguration(
            databasePath: database,
            http: HTTPServerConfiguration(
                host: host, port: port, threads: threads, maxConnections: maxConnections,
                idleTimeoutSeconds: idleTimeout, maxBodyBytes: maxBodyBytes, connectionMemoryBytes: connectionMemoryKiB * 1024,
                wakeBatch: wakeBatch,
                keepaliveSeconds: keepalive,
                publicFiles: try publicFiles(),
                adminToken: token, allowedOrigins: access.allowedOrigins),
            tcp: try tcpConfiguration(),
            webSocket: WebSocketConfiguration(keepaliveSeconds: keepalive, echo: webSocketEcho),
            auth: try access.configuration())
        configuration.limits = messages.limits
        configuration.maxConnectionsPerAddress = access.maxConnectionsPerAddress > 0 ? access.maxConnectionsPerAddress : nil
        try OptionRange.check("--store-timeout", storeTimeout, 0.1...600, " seconds")
        configuration.storeTimeoutSeconds = storeTimeout
        media.apply(to: &configuration)
        try push.apply(to: &configuration)
        hooks.apply(to: &configuration)
        configuration.http.tls = try tls.credentials()
        configuration.http.publicURL = access.publicURL
        // SwiftNIO's TLS (the line port, --wss): one context for both, as SIGHUP makes it.
        if let credentials = configuration.http.tls, tls.tcp || tls.webSocket != nil {
            let context = try Result { try LineTLS.context(certificatePEM: credentials.certificatePEM, keyPEM: credentials.keyPEM) }
                .mapError { ValidationError("--tls-cert and --tls-key: not a usable certificate and key for --tcp-tls and --wss (\($0)).") }
                .get()
            if tls.tcp { configuration.tcp?.tls = context }
            if let address = tls.webSocket {
                let (wssHost, wssPort) = try Self.hostAndPort(address)
                configuration.webSocketTLS = WebSocketTLSAddress(host: wssHost, port: Int(wssPort), context: context)
            }
        }

        // Signals are taken on a queue, not in a handler, so shutdown can do real work.
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let stop = DispatchSemaphore(value: 0)
        let sources = [SIGINT, SIGTERM].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop.signal() }
            source.resume()
            return source
        }

        let server: ChatServer
        do {
            server = try ChatServer(configuration: configuration, logger: logger)
        } catch let error as TokenKeyError {
            throw ValidationError("--jwt-secret or --jwt-public-key: \(error.reason).")
        } catch let error as MicroHTTPDError where configuration.http.tls != nil {
            throw ValidationError("--tls-cert \(tls.certificate ?? "") and --tls-key \(tls.key ?? ""): \(error)")
        }
        let reloads = CertificateReloader(options: tls, logger: logger).install(for: server)
        defer { reloads.cancel() }
        let node = server.cluster.map { " as node \($0.nodeID)" } ?? ""
        let scheme = configuration.http.tls == nil ? "http" : "https"
        logger.info("serving HTTP on \(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(server.httpPort) with database \(configuration.databaseForLogs)\(node)")
        if givenToken == nil {
            // Printed once, to the terminal only: never through the logger.
            print("admin token (for /admin and /api/admin/): \(token)")
            fflush(nil)
        }
        logger.info("identity: --auth \(configuration.auth.mode.rawValue), registration \(configuration.auth.registration.rawValue)")
        if let warning = hooks.shortSecretWarning { logger.warning("\(warning)") }
        if ["0.0.0.0", "::"].contains(host), access.publicURL == nil {
            logger.notice("bound to every address with no --public-url: pages opened under a host name (not an IP address or localhost) cannot open WebSockets or post with their cookie; give --public-url http://NAME:\(server.httpPort)")
        }
        if let wss = server.webSocketTLS, let wssHost = configuration.webSocketTLS?.host {
            logger.info("serving wss on wss://\(wssHost):\(wss.port)/api/rooms/ROOM/ws (TLS in SwiftNIO, no relay)")
        }
        if let tcpPort = server.tcpPort, let tcpHost = configuration.tcp?.host {
            let hint = configuration.tcp?.tls == nil ? "nc \(tcpHost) \(tcpPort)" : "openssl s_client -quiet -connect \(tcpHost):\(tcpPort)"
            logger.info("serving the DogeChat line protocol on TCP \(tcpHost):\(tcpPort)\(configuration.tcp?.tls == nil ? "" : " over TLS") (try: \(hint))")
        }
        stop.wait()
        logger.info("shutting down")
        server.shutdown()
        sources.forEach { $0.cancel() }
        logger.info("stopped")
    }

    /// `--public`, or `Public/` in the current folder, or the repository's
    /// `Public/` next to the build folder the binary runs from.
    private func publicFiles() throws -> StaticFiles? {
        if let given = `public` {
            guard let files = StaticFiles(root: given) else { throw ValidationError("--public \(given) is not a folder.") }
            return files
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let repository = executable.deletingLastPathComponent().appendingPathComponent("../../../Public").path
        return StaticFiles(root: "Public") ?? StaticFiles(root: repository)
    }

    private func tcpConfiguration() throws -> TCPServerConfiguration? {
        guard tcp != "off" else { return nil }
        let (host, port) = try Self.hostAndPort(tcp)
        return TCPServerConfiguration(host: host, port: Int(port), flushMilliseconds: tcpFlushMs,
                                      keepaliveIdleSeconds: tcpKeepalive, idleTimeoutSeconds: tcpIdleTimeout)
    }

    static func hostAndPort(_ value: String) throws -> (String, UInt16) {
        guard let colon = value.lastIndex(of: ":"), let port = UInt16(value[value.index(after: colon)...]) else {
            throw ValidationError("Expected HOST:PORT, got '\(value)'.")
        }
        var host = String(value[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" { host = "127.0.0.1" }
        guard !host.isEmpty else { throw ValidationError("Expected HOST:PORT, got '\(value)'.") }
        return (host, port)
    }

    /// Every connection is a file descriptor: say so at start when the limit
    /// is lower than the connections allowed, rather than fail accepts later.
    private func warnIfFileLimitBelow(_ connections: Int, logger: Logger) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        let margin = 64  // database, listening sockets, event descriptors
        if limit.rlim_cur < rlim_t(connections + margin) {
            logger.warning("open-file limit is \(limit.rlim_cur): at most about \(Int(limit.rlim_cur) - margin) connections, not \(connections) (raise it with ulimit -n)")
        }
    }

    /// Lifts the soft open-file limit to the hard one: every connection is a descriptor.
    private func raiseOpenFileLimit(logger: Logger) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) != 0 {
            logger.warning("could not raise the open-file limit")
        }
    }
}
