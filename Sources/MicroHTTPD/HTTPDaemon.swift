import CMicroHTTPD

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A running libmicrohttpd daemon in event-loop mode: a pool of worker threads,
/// each with its own epoll loop, with suspend/resume enabled.
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
        let context = DaemonContext(handler: handler, configuration: configuration)
        self.context = context

        var flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ERROR_LOG.rawValue
            | MHD_ALLOW_UPGRADE.rawValue
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
                MHD_OptionItem(option: .THREAD_POOL_SIZE, value: configuration.threadPoolSize, ptr_value: nil),
                MHD_OptionItem(option: .CONNECTION_LIMIT, value: configuration.connectionLimit, ptr_value: nil),
                MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: configuration.connectionTimeout, ptr_value: nil),
                MHD_OptionItem(option: .LISTEN_BACKLOG_SIZE, value: configuration.listenBacklog, ptr_value: nil),
                MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: configuration.connectionMemoryLimit, ptr_value: nil),
                MHD_OptionItem(option: .NOTIFY_COMPLETED,
                               value: unsafeBitCast(requestCompleted, to: Int.self), ptr_value: contextPointer),
            ]
            options += Self.tlsOptions(context.tlsStrings)
            options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
            return options.withUnsafeMutableBufferPointer { buffer in
                sb_start_daemon(flags, configuration.port, acceptPolicy, contextPointer,
                                accessHandler, contextPointer, buffer.baseAddress)
            }
        }
        guard let started else {
            let error = errno
            context.resumeQueue.stop()
            let what = configuration.tls == nil ? "" : " with TLS (is the certificate and key a matching PEM pair?)"
            throw MicroHTTPDError(operation: "start on \(configuration.host):\(configuration.port)\(what)", errno: error)
        }
        daemon = started
        port = sb_daemon_bind_port(started)
    }

    /// The key, the certificate and the priorities (`strings`, in that
    /// order, kept alive by the context) as libmicrohttpd's options.
    private static func tlsOptions(_ strings: [ContiguousArray<CChar>]) -> [MHD_OptionItem] {
        guard strings.count == 3 else { return [] }
        let kinds: [MHD_OPTION] = [.HTTPS_MEM_KEY, .HTTPS_MEM_CERT, .HTTPS_PRIORITIES]
        return zip(kinds, strings).map { kind, string in
            MHD_OptionItem(option: kind, value: 0,
                           ptr_value: string.withUnsafeBufferPointer { UnsafeMutableRawPointer(mutating: $0.baseAddress) })
        }
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
        context.resumeQueue.stop()
        MHD_stop_daemon(daemon)
    }

    deinit {
        stop()
    }
}


private let acceptPolicy: MHD_AcceptPolicyCallback = { cls, _, _ in
    guard let cls else { return .NO }
    return Unmanaged<DaemonContext>.fromOpaque(cls).takeUnretainedValue().accepting.load(ordering: .acquiring) ? .YES : .NO
}

private let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, uploadData, uploadDataSize, connectionContext in
    guard let cls, let connection, let connectionContext, let uploadDataSize else { return .NO }
    let context = Unmanaged<DaemonContext>.fromOpaque(cls).takeUnretainedValue()

    guard let existing = connectionContext.pointee else {
        // First call: headers only. Create the exchange and refuse an announced
        // oversized body before reading any of it.
        let exchange = HTTPExchange(
            connection: connection,
            method: method.map { String(cString: $0) } ?? "",
            path: url.map { String(cString: $0) } ?? "/",
            resumeQueue: context.resumeQueue
        )
        exchange.overTLS = context.configuration.tls != nil
        connectionContext.pointee = Unmanaged.passRetained(exchange).toOpaque()
        if let length = exchange.header("Content-Length").flatMap(Int.init), length > context.configuration.maxBodyBytes {
            exchange.bodyTooLarge = true
            return dispatch(exchange, context: context)
        }
        return .YES
    }
    let exchange = Unmanaged<HTTPExchange>.fromOpaque(existing).takeUnretainedValue()

    if uploadDataSize.pointee > 0 {
        let count = uploadDataSize.pointee
        uploadDataSize.pointee = 0
        if exchange.started { return .YES }  // a response is already queued; drop the rest
        if exchange.bodyTooLarge || exchange.body.count + count > context.configuration.maxBodyBytes {
            // Chunked body past the limit: keep nothing more, and hang up if the
            // client goes on sending far beyond it.
            exchange.bodyTooLarge = true
            exchange.body = []
            exchange.discardedBytes += count
            return exchange.discardedBytes > 16 * context.configuration.maxBodyBytes ? .NO : .YES
        }
        if let uploadData {
            uploadData.withMemoryRebound(to: UInt8.self, capacity: count) { pointer in
                exchange.body.append(contentsOf: UnsafeBufferPointer(start: pointer, count: count))
            }
        }
        return .YES
    }
    return dispatch(exchange, context: context)
}

private func dispatch(_ exchange: HTTPExchange, context: DaemonContext) -> MHD_Result {
    exchange.started = true
    let result: HTTPHandlerResult
    if let continuation = exchange.continuation {
        exchange.served()
        exchange.continuation = nil
        result = continuation.resumed(exchange)
    } else {
        result = context.handler.handle(exchange)
    }
    switch result {
    case .suspended:
        return .YES
    case .respond(let response):
        return queue(response, on: exchange)
    }
}

private func queue(_ response: HTTPResponse, on exchange: HTTPExchange) -> MHD_Result {
    let created: OpaquePointer?
    switch response.body {
    case .bytes(let bytes):
        created = bytes.withUnsafeBytes { buffer in
            MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
        }
    case .stream(let body, let blockSize):
        let streamContext = Unmanaged.passRetained(StreamContext(body: body, exchange: exchange))
        created = MHD_create_response_from_callback(sb_size_unknown(), blockSize, streamReader, streamContext.toOpaque(), streamFree)
        if created == nil {
            streamContext.release()
            body.finish()
        }
    case .upgrade(let handler):
        // The exchange is the callback's context: it lives until the request
        // completes, which for an upgraded connection is after the handover,
        // and for a client gone before the 101 frees the handler with it.
        exchange.upgradeHandler = handler
        created = MHD_create_response_for_upgrade(upgradeHandler, Unmanaged.passUnretained(exchange).toOpaque())
    }
    guard let created else { return .NO }
    for (name, value) in response.headers {
        _ = MHD_add_response_header(created, name, value)
    }
    for (name, value) in exchange.responseHeaders {
        _ = MHD_add_response_header(created, name, value)
    }
    let result = MHD_queue_response(exchange.connection, UInt32(response.status), created)
    MHD_destroy_response(created)
    return result
}

private let streamReader: MHD_ContentReaderCallback = { cls, _, buffer, max in
    guard let cls, let buffer else { return MHD_CONTENT_READER_END_WITH_ERROR }
    let context = Unmanaged<StreamContext>.fromOpaque(cls).takeUnretainedValue()
    context.exchange.served()
    switch context.body.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: max), exchange: context.exchange) {
    case .wrote(let count): return count
    case .suspended: return 0
    case .end: return MHD_CONTENT_READER_END_OF_STREAM
    case .abort: return MHD_CONTENT_READER_END_WITH_ERROR
    }
}

private let streamFree: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    let context = Unmanaged<StreamContext>.fromOpaque(cls).takeRetainedValue()
    context.body.finish()
}

private let requestCompleted: MHD_RequestCompletedCallback = { _, _, connectionContext, reason in
    guard let connectionContext, let pointer = connectionContext.pointee else { return }
    connectionContext.pointee = nil
    let exchange = Unmanaged<HTTPExchange>.fromOpaque(pointer).takeRetainedValue()
    exchange.served()
    let completion: HTTPCompletion
    switch reason {
    case .REQUEST_TERMINATED_COMPLETED_OK: completion = .completed
    case .REQUEST_TERMINATED_TIMEOUT_REACHED: completion = .timedOut
    case .REQUEST_TERMINATED_DAEMON_SHUTDOWN: completion = .shutdown
    default: completion = .failed
    }
    let handlers = exchange.completionHandlers
    exchange.completionHandlers = []
    for handler in handlers.reversed() { handler(completion) }
    exchange.continuation = nil
    exchange.upgradeHandler = nil
}

private let daemonLogger: MHD_LogCallback = { cls, format, arguments in
    guard let cls, let format, let arguments else { return }
    let context = Unmanaged<DaemonContext>.fromOpaque(cls).takeUnretainedValue()
    guard let log = context.configuration.log else { return }
    var buffer = [CChar](repeating: 0, count: 1024)
    _ = vsnprintf(&buffer, buffer.count, format, arguments)
    var message = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    while message.last?.isNewline == true { message.removeLast() }
    log(message)
}
