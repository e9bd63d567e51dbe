import CMicroHTTPD

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A running libmicrohttpd daemon in event-loop mode, with suspend/resume
/// enabled: one worker is our ``DaemonLoop``'s thread, more are
/// libmicrohttpd's pool, each with its own epoll loop.
///
/// Owned explicitly: call ``stop()`` once, after every suspended exchange has
/// been resumed (libmicrohttpd requires it).
public final class HTTPDaemon: @unchecked Sendable {
    /// The bound port (the real one when the configuration asked for 0).
    public let port: UInt16
    /// The configuration the daemon was started with.
    public var configuration: HTTPDaemonConfiguration { context.configuration }

    private var daemon: OpaquePointer?
    /// The `cls` of every callback. Held for the daemon's whole life: ``stop()``
    /// (also run by `deinit`) returns only after the last callback.
    private let context: DaemonContext

    /// Binds and starts serving at once.
    /// - Throws: ``MicroHTTPDError`` when the address is invalid or cannot be bound.
    public init(configuration: HTTPDaemonConfiguration, handler: any HTTPRequestHandler) throws {
        let context = try DaemonContext(handler: handler, configuration: configuration)
        self.context = context

        // Not MHD_USE_TURBO: it cut the system calls of a long-poll answer by
        // about 11 % under strace, but CPU per delivery and p99 did not move
        // (A/B on 1,000 clients, docs/BENCHMARKS.md), and it skips the
        // shutdown() before close that lets a client read a refusal.
        // One worker: our own loop runs it (no inter-thread channel, so a
        // resume writes no eventfd; see DaemonLoop). A pool: libmicrohttpd's threads.
        let threads = context.loop == nil ? MHD_USE_EPOLL_INTERNAL_THREAD.rawValue : MHD_USE_EPOLL.rawValue
        var flags = threads | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ERROR_LOG.rawValue | MHD_ALLOW_UPGRADE.rawValue
        guard var storage = Self.socketAddress(host: configuration.host, port: configuration.port) else {
            throw MicroHTTPDError(operation: "use '\(configuration.host)' as an address (an IPv4 or IPv6 literal is needed)", errno: 0)
        }
        if Int32(storage.ss_family) == AF_INET6 { flags |= MHD_USE_IPv6.rawValue }
        if configuration.tls != nil { flags |= MHD_USE_TLS.rawValue }

        let contextPointer = Unmanaged.passUnretained(context).toOpaque()
        let started: OpaquePointer? = withUnsafeMutablePointer(to: &storage) { storagePointer in
            var options: [MHD_OptionItem] = [
                // The logger first, so that start-up messages reach it too.
                MHD_OptionItem(option: .EXTERNAL_LOGGER,
                               value: unsafeBitCast(daemonLogger, to: Int.self), ptr_value: contextPointer),
                MHD_OptionItem(option: .SOCK_ADDR, value: 0, ptr_value: UnsafeMutableRawPointer(storagePointer)),
                MHD_OptionItem(option: .CONNECTION_LIMIT, value: configuration.connectionLimit, ptr_value: nil),
                MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: configuration.connectionTimeout, ptr_value: nil),
                MHD_OptionItem(option: .LISTEN_BACKLOG_SIZE, value: configuration.listenBacklog, ptr_value: nil),
                MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: configuration.connectionMemoryLimit, ptr_value: nil),
                MHD_OptionItem(option: .URI_LOG_CALLBACK, value: unsafeBitCast(sb_uri_callback_pointer(), to: Int.self),
                               ptr_value: UnsafeMutableRawPointer(bitPattern: max(1, configuration.maxQueryParameters))),
                MHD_OptionItem(option: .UNESCAPE_CALLBACK, value: unsafeBitCast(sb_unescape_pointer(), to: Int.self), ptr_value: nil),
                MHD_OptionItem(option: .NOTIFY_COMPLETED,
                               value: unsafeBitCast(requestCompleted, to: Int.self), ptr_value: contextPointer),
            ]
            // One worker is the daemon's own internal thread: a pool of one
            // is refused with a warning at every start ("Thread pool is not used").
            if configuration.threadPoolSize > 1 {
                options.append(MHD_OptionItem(option: .THREAD_POOL_SIZE, value: configuration.threadPoolSize, ptr_value: nil))
            }
            options += Self.tlsOptions(context)
            // A TLS connection's certificate slot, and the admission's count.
            if context.certificate != nil || configuration.admission != nil {
                options.append(MHD_OptionItem(option: .NOTIFY_CONNECTION, value: unsafeBitCast(connectionNotified, to: Int.self),
                                              ptr_value: contextPointer))
            }
            options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
            return options.withUnsafeMutableBufferPointer { buffer in
                sb_start_daemon(flags, configuration.port, acceptPolicy, contextPointer,
                                accessHandler, contextPointer, buffer.baseAddress)
            }
        }
        guard let started else {
            let error = errno
            context.stopHelpers()
            let what = configuration.tls == nil ? "" : " with TLS (is the certificate and key a matching PEM pair?)"
            throw MicroHTTPDError(operation: "start on \(configuration.host):\(configuration.port)\(what)", errno: error)
        }
        do {
            try context.loop?.start(started)
        } catch {
            MHD_stop_daemon(started)
            context.stopHelpers()
            throw error
        }
        daemon = started
        port = sb_daemon_bind_port(started)
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
        guard let certificate = context.certificate else {
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
        context.accepting.store(false, ordering: .releasing)
    }

    /// Whether new connections are served (false after ``quiesce()``).
    public var isAccepting: Bool {
        context.accepting.load(ordering: .acquiring)
    }

    /// Closes every connection, joins the worker threads and closes the
    /// listening socket. Resume every suspended exchange before calling this.
    public func stop() {
        guard let daemon else { return }
        self.daemon = nil
        context.resumeQueue?.stop()
        context.loop?.stop()
        MHD_stop_daemon(daemon)
        context.hangups.stop()
    }

    deinit {
        stop()
    }
}
