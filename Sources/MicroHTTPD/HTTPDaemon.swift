import CMicroHTTPD

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A running libmicrohttpd server in event-loop mode, with suspend/resume
/// enabled: one daemon a worker, each run by a ``DaemonLoop`` thread of
/// ours (libmicrohttpd's external epoll mode), all accepting on one
/// listening socket.
///
/// Why not libmicrohttpd's own pool of worker threads for more than one
/// worker: a pool's daemon has an inter-thread channel, and
/// `MHD_resume_connection` writes it at every call (a system call per
/// publish answered and per SSE delivery), and its resumes needed a thread
/// of their own to pace them. A loop of ours resumes in turns on the thread
/// that serves them and is woken once however many resumes came
/// (``DaemonLoop``); with several, each serves the connections it accepted.
///
/// Owned explicitly: call ``stop()`` once, after every suspended exchange has
/// been resumed (libmicrohttpd requires it).
public final class HTTPDaemon: @unchecked Sendable {
    /// The bound port (the real one when the configuration asked for 0).
    public let port: UInt16
    /// The configuration the daemon was started with.
    public var configuration: HTTPDaemonConfiguration { contexts[0].configuration }

    /// The workers' daemons, the first bound to the address; empty once stopped.
    private var daemons: [OpaquePointer] = []
    /// The `cls` of every callback, one a worker. Held for the daemons' whole
    /// life: ``stop()`` (also run by `deinit`) returns only after the last callback.
    private let contexts: [DaemonContext]
    private let hangups: HangupWatch

    /// Binds and starts serving at once, with ``HTTPDaemonConfiguration/threadPoolSize`` workers.
    /// - Throws: ``MicroHTTPDError`` when the address is invalid or cannot be bound.
    public init(configuration: HTTPDaemonConfiguration, handler: any HTTPRequestHandler) throws {
        let hangups = HangupWatch()
        self.hangups = hangups
        var contexts: [DaemonContext] = []
        do {
            let certificate = try configuration.tls.map { tls throws(MicroHTTPDError) in try TLSCertificateSlot(tls) }
            for _ in 0..<Self.workers(configuration) {
                contexts.append(try DaemonContext(handler: handler, configuration: configuration, hangups: hangups,
                                                  certificate: certificate))
            }
        } catch {
            hangups.stop()
            throw error
        }
        self.contexts = contexts
        var started: [OpaquePointer] = []
        do {
            // The first binds the address; the others accept on the same socket.
            started.append(try Self.start(contexts[0], worker: 0, listening: nil))
            for worker in contexts.indices.dropFirst() {
                let socket = sb_daemon_listen_socket(started[0])
                guard socket >= 0 else { throw MicroHTTPDError(operation: "share the listening socket", errno: errno) }
                started.append(try Self.start(contexts[worker], worker: worker, listening: socket))
            }
        } catch {
            Self.stop(started, contexts, hangups)
            throw error
        }
        daemons = started
        port = sb_daemon_bind_port(started[0])
    }

    /// Starts worker `worker`'s daemon on its loop: bound to the configured
    /// address, or accepting on `listening` (a descriptor it then owns).
    private static func start(_ context: DaemonContext, worker: Int, listening: Int32?) throws -> OpaquePointer {
        let configuration = context.configuration
        // Not MHD_USE_TURBO: it cut the system calls of a long-poll answer by
        // about 11 % under strace, but CPU per delivery and p99 did not move
        // (A/B on 1,000 clients, docs/BENCHMARKS.md), and it skips the
        // shutdown() before close that lets a client read a refusal.
        var flags = MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ERROR_LOG.rawValue | MHD_ALLOW_UPGRADE.rawValue
        guard var storage = socketAddress(host: configuration.host, port: configuration.port) else {
            if let listening { close(listening) }
            throw MicroHTTPDError(operation: "use '\(configuration.host)' as an address (an IPv4 or IPv6 literal is needed)", errno: 0)
        }
        if Int32(storage.ss_family) == AF_INET6 { flags |= MHD_USE_IPv6.rawValue }
        if configuration.tls != nil { flags |= MHD_USE_TLS.rawValue }
        // Each worker takes its share of the connections (a worker at its
        // share stops accepting, and the others accept), the first ones one
        // more while some are left over: together, the limit.
        let workers = Self.workers(configuration)
        let share = configuration.connectionLimit / workers + (worker < configuration.connectionLimit % workers ? 1 : 0)
        let connectionLimit = share
        context.loop.connectionLimit = share

        let contextPointer = Unmanaged.passUnretained(context).toOpaque()
        let started: OpaquePointer? = withUnsafeMutablePointer(to: &storage) { storagePointer in
            var options: [MHD_OptionItem] = [
                // The logger first, so that start-up messages reach it too.
                MHD_OptionItem(option: .EXTERNAL_LOGGER,
                               value: unsafeBitCast(daemonLogger, to: Int.self), ptr_value: contextPointer),
                listening.map { MHD_OptionItem(option: .LISTEN_SOCKET, value: Int($0), ptr_value: nil) }
                    ?? MHD_OptionItem(option: .SOCK_ADDR, value: 0, ptr_value: UnsafeMutableRawPointer(storagePointer)),
                MHD_OptionItem(option: .CONNECTION_LIMIT, value: connectionLimit, ptr_value: nil),
                MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: configuration.connectionTimeout, ptr_value: nil),
                MHD_OptionItem(option: .LISTEN_BACKLOG_SIZE, value: configuration.listenBacklog, ptr_value: nil),
                MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: configuration.connectionMemoryLimit, ptr_value: nil),
                MHD_OptionItem(option: .URI_LOG_CALLBACK, value: unsafeBitCast(sb_uri_callback_pointer(), to: Int.self),
                               ptr_value: UnsafeMutableRawPointer(bitPattern: max(1, configuration.maxQueryParameters))),
                MHD_OptionItem(option: .UNESCAPE_CALLBACK, value: unsafeBitCast(sb_unescape_pointer(), to: Int.self), ptr_value: nil),
                MHD_OptionItem(option: .NOTIFY_COMPLETED,
                               value: unsafeBitCast(requestCompleted, to: Int.self), ptr_value: contextPointer),
            ]
            options += tlsOptions(context)
            // The loop's count of connections, a TLS connection's certificate slot, and the admission's count.
            options.append(MHD_OptionItem(option: .NOTIFY_CONNECTION, value: unsafeBitCast(connectionNotified, to: Int.self),
                                          ptr_value: contextPointer))
            options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
            return options.withUnsafeMutableBufferPointer { buffer in
                sb_start_daemon(flags, configuration.port, acceptPolicy, contextPointer,
                                accessHandler, contextPointer, buffer.baseAddress)
            }
        }
        guard let started else {
            let error = errno
            if let listening { close(listening) }
            let what = configuration.tls == nil ? "" : " with TLS (is the certificate and key a matching PEM pair?)"
            throw MicroHTTPDError(operation: "start on \(configuration.host):\(configuration.port)\(what)", errno: error)
        }
        do {
            try context.loop.start(started)
        } catch {
            MHD_stop_daemon(started)
            throw error
        }
        return started
    }

    /// How many workers a configuration runs: ``HTTPDaemonConfiguration/threadPoolSize``,
    /// at least one, and no more than connections allowed (each takes one at least).
    private static func workers(_ configuration: HTTPDaemonConfiguration) -> Int {
        max(1, min(configuration.threadPoolSize, configuration.connectionLimit))
    }

    /// TLS as libmicrohttpd's options: the priorities, and the certificate
    /// asked for at each handshake from the context's slot (each connection's
    /// socket context points at it), so that ``reloadCertificate(_:)`` reaches new connections.
    private static func tlsOptions(_ context: DaemonContext) -> [MHD_OptionItem] {
        guard context.certificate != nil, let priorities = context.tlsStrings.pointers.first else { return [] }
        return [
            MHD_OptionItem(option: .HTTPS_PRIORITIES, value: 0, ptr_value: UnsafeMutableRawPointer(priorities)),
            MHD_OptionItem(option: .HTTPS_CERT_CALLBACK, value: 0, ptr_value: sb_tls_retrieve_pointer()),
        ]
    }

    /// Serves `credentials` from the next TLS handshake on; connections open
    /// now keep theirs. Throws, keeping the current ones, when they cannot be
    /// loaded or the key is not the certificate's.
    public func reloadCertificate(_ credentials: TLSCredentials) throws(MicroHTTPDError) {
        guard let certificate = contexts[0].certificate else {
            throw MicroHTTPDError(operation: "reload a certificate (this daemon serves no TLS)", errno: 0)
        }
        try certificate.replace(with: credentials)
    }

    /// Stops serving new connections: from now on each is closed as soon as
    /// it is accepted, before any request is read. Open connections go on
    /// being served. Safe from any thread.
    ///
    /// This is not `MHD_quiesce_daemon`: on an epoll daemon with worker
    /// threads, that races with the workers' own removal of the listening
    /// socket from their epoll sets and libmicrohttpd (up to at least 0.9.75)
    /// can abort the process with "Failed to remove listen FD from epoll set".
    public func quiesce() {
        for context in contexts { context.accepting.store(false, ordering: .releasing) }
    }

    /// Whether new connections are served (false after ``quiesce()``).
    public var isAccepting: Bool {
        contexts[0].accepting.load(ordering: .acquiring)
    }

    /// Closes every connection, joins the workers' loops and closes the
    /// listening socket. Resume every suspended exchange before calling this.
    public func stop() {
        let stopping = daemons
        daemons = []
        Self.stop(stopping, contexts, hangups)
    }

    /// Stops `daemons` (the first of `contexts`' workers), each loop running
    /// its daemon once more and ending before the daemon stops, then the
    /// hang-up watch.
    private static func stop(_ daemons: [OpaquePointer], _ contexts: [DaemonContext], _ hangups: HangupWatch) {
        for (daemon, context) in zip(daemons, contexts) {
            context.loop.stop()
            MHD_stop_daemon(daemon)
        }
        hangups.stop()
    }

    deinit {
        stop()
    }
}
