import CMicroHTTPD

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why an exchange ended.
public enum HTTPCompletion: Sendable, Equatable {
    /// The response was sent in full.
    case completed
    /// The connection failed or the client went away before the end.
    case failed
    /// The inactivity timeout closed the connection.
    case timedOut
    /// The daemon was shutting down.
    case shutdown
}

/// One HTTP request and its response on a libmicrohttpd connection.
///
/// Everything but ``resume()`` must be used on the connection's worker thread,
/// i.e. from ``HTTPRequestHandler/handle(_:)`` or ``HTTPStreamBody/read(into:exchange:)``.
public final class HTTPExchange: @unchecked Sendable {
    /// The request method, e.g. `GET`.
    public let method: String
    /// The request path without the query string, percent-decoded by libmicrohttpd.
    public let path: String
    // `@exclusivity(unchecked)` below: touched on the connection's worker thread
    // (docs/ARCHITECTURE.md, "Exclusivity checked where it can fail").
    /// The request body (at most the daemon's `maxBodyBytes`).
    @exclusivity(unchecked) public internal(set) var body: [UInt8] = []
    /// True when the body was larger than allowed; ``body`` is then incomplete.
    @exclusivity(unchecked) public internal(set) var bodyTooLarge = false
    /// True when the query had more parameters than allowed; it was then
    /// not read at all (see ``HTTPDaemonConfiguration/maxQueryParameters``).
    @exclusivity(unchecked) public internal(set) var tooManyParameters = false
    /// True when the path or a query parameter is not UTF-8 once decoded
    /// (``path`` is then `/`: the application refuses the request).
    @exclusivity(unchecked) public internal(set) var targetNotUTF8 = false
    /// True when another parser could read where the body ends otherwise
    /// (`sb_head_refusal`): its body is not read, and the connection closes after the answer.
    @exclusivity(unchecked) public internal(set) var framingIsAmbiguous = false
    /// True when an HTTP/1.1 request has no `Host`, two, or one no authority
    /// can be (`sb_head_refusal`); refused as ``framingIsAmbiguous`` is.
    @exclusivity(unchecked) public internal(set) var hostIsInvalid = false
    /// True for an HTTP/1.0 request (libmicrohttpd answers 505 to any version but 1.0 and 1.1).
    @exclusivity(unchecked) public internal(set) var isHTTP10 = false
    /// The authority of a target in absolute form (``AbsoluteFormTarget``):
    /// what ``header(_:)`` answers for `Host`.
    @exclusivity(unchecked) var targetAuthority: String?
    /// What runs instead of the handler when a suspended exchange resumes;
    /// see ``suspend(continuingWith:)``.
    @exclusivity(unchecked) var continuation: (any HTTPContinuation)?
    /// Whether the connection is TLS: an upgraded socket is then
    /// libmicrohttpd's relay, not the client's socket (see ``UpgradedSocket``).
    var overTLS: Bool { daemon.configuration.tls != nil }
    /// Who takes the socket over after a `101`; see ``HTTPResponse/Body/upgrade(_:)``.
    @exclusivity(unchecked) var upgradeHandler: (@Sendable (UpgradedSocket) -> Void)?
    /// Headers added to whatever response this exchange sends (e.g. CORS,
    /// decided before the endpoint makes its answer). Worker thread only.
    @exclusivity(unchecked) public var responseHeaders: [(name: String, value: String)] = []
    /// What runs when the exchange ends; see ``onCompletion(_:)``.
    @exclusivity(unchecked) private var completions = CompletionHandlers()

    let connection: OpaquePointer
    /// The daemon's helpers: its loop (``resumeInTurn()``), hang-up watch,
    /// and its configuration. One reference for all of them.
    private let daemon: DaemonContext
    /// Where a streamed body goes (``HTTPBodyReading``), until taken.
    @exclusivity(unchecked) var bodySink: (any HTTPBodySink)?
    /// libmicrohttpd's post processor for a multipart body, while it reads.
    @exclusivity(unchecked) var postProcessor: OpaquePointer?
    /// The multipart field whose part goes to ``bodySink``.
    @exclusivity(unchecked) var multipartField: String?
    /// How many parts of that field began (a second is refused).
    @exclusivity(unchecked) var multipartParts = 0
    /// Why a streamed body was not read whole.
    @exclusivity(unchecked) public internal(set) var bodyFailure: String?
    /// Bytes of an oversized body thrown away so far.
    @exclusivity(unchecked) var discardedBytes = 0
    /// Whether the handler has been called since the request arrived in full.
    @exclusivity(unchecked) var started = false

    /// This exchange's hang-up watch, while there is one (worker thread only).
    @exclusivity(unchecked) private var hangupToken: UInt64?

    /// The thread running the connection's daemon, woken after a resume.
    var loop: DaemonLoop { daemon.loop }

    init(connection: OpaquePointer, method: String, path: String, daemon: DaemonContext) {
        self.connection = connection
        self.daemon = daemon
        self.method = method
        self.path = path
    }

    /// Runs `handler` once when the exchange ends, on a worker thread.
    /// Handlers run last-registered first, like `defer`: what was set up
    /// last is undone first.
    public func onCompletion(_ handler: @escaping @Sendable (HTTPCompletion) -> Void) {
        completions.append(handler)
    }

    /// Runs the completion handlers, once (see ``CompletionHandlers``).
    func runCompletionHandlers(_ completion: HTTPCompletion) {
        // Taken out first: a handler may call onCompletion (the field is not checked for overlaps).
        let taken = completions.take()
        taken.run(completion)
    }

    /// The value of a query-string argument, decoded; nil when absent (`""` without `=`).
    public func query(_ name: String) -> String? { lookup(.GET_ARGUMENT_KIND, name) }

    /// The value of a request header (case-insensitive name); nil when absent.
    public func header(_ name: String) -> String? {
        if let targetAuthority, name.utf8.count == 4, name.lowercased() == "host" { return targetAuthority }
        return lookup(.HEADER_KIND, name)
    }

    /// The sink of a streamed body, once; see ``HTTPExchanging/takeBodySink()``.
    public func takeBodySink() -> (any HTTPBodySink)? {
        defer { bodySink = nil }
        return bodySink
    }

    /// Parks the connection: no reads, no writes, no timeouts, until ``resume()``.
    /// Only from the handler or a stream body's read, on the worker thread.
    public func suspend() {
        MHD_suspend_connection(connection)
    }

    /// Parks the request (before any response): when ``resume()`` is called,
    /// `continuation` is asked what to answer instead of the handler. The
    /// handler then returns ``HTTPHandlerResult/suspended``.
    public func suspend(continuingWith continuation: any HTTPContinuation) {
        self.continuation = continuation
        MHD_suspend_connection(connection)
    }

    /// See ``HTTPExchanging/askAgain(continuingWith:)``: libmicrohttpd calls the access handler
    /// again at its next pass (a connection with no response keeps `data_already_pending`).
    public func askAgain(continuingWith continuation: any HTTPContinuation) {
        self.continuation = continuation
        loop.askedAgain()
    }

    /// Calls `handler` once, on another thread, if the client closes its
    /// socket (or it is reset) while this exchange is suspended: libmicrohttpd
    /// does not watch a suspended connection's socket. The handler should
    /// resume the exchange, which then answers (to nobody) and is closed.
    /// After ``suspend(continuingWith:)``, on the worker thread (or on another
    /// while the exchange stays suspended and nothing can resume it, as a
    /// long poll's watch is armed under the bus's lock); the watch
    /// ends when the continuation is resumed or the exchange completes. (A
    /// streamed response is watched by the daemon for its whole life:
    /// ``HTTPStreamBody/clientLeft()``.)
    public func watchHangup(_ handler: @escaping @Sendable () -> Void) {
        guard hangupToken == nil else { return }
        hangupToken = daemon.hangups.watch(fd: sb_connection_fd(connection), handler: handler)
    }

    /// Watches the socket while a streamed body arrives: a client that
    /// leaves part-way has its socket shut down, so libmicrohttpd notices at
    /// once (see ``HangupWatch/watch(fd:shuttingDown:handler:)``) and the
    /// body's sink is abandoned. Worker thread; ended by ``unwatchHangup()``.
    func watchBodyHangup() {
        guard hangupToken == nil else { return }
        hangupToken = daemon.hangups.watch(fd: sb_connection_fd(connection), shuttingDown: true, handler: {})
    }

    /// Ends the watch of ``watchHangup(_:)``, if any (worker thread).
    func unwatchHangup() {
        guard let token = hangupToken else { return }
        hangupToken = nil
        daemon.hangups.unwatch(token)
    }

    /// Un-parks a suspended connection; safe from any thread. The handler (or
    /// the stream body) is then called again on the connection's worker
    /// thread, before the next turn of ``resumeInTurn()``'s
    /// (``DaemonLoop/wakeForResume()``): for one answer, not thousands.
    public func resume() {
        MHD_resume_connection(connection)
        loop.wakeForResume()
    }

    /// ``resume()`` in its turn, for wake-ups that come in thousands (a
    /// message for every stream and long poll of a room): resumed a turn at
    /// a time, so that a worker serves what else came in between turns (by
    /// its ``DaemonLoop`` itself). Safe from any thread.
    public func resumeInTurn() {
        loop.resumeInTurn(self)
    }

    /// Un-parks a suspended connection without waking the daemon's thread:
    /// for that thread itself, about to run the daemon (see ``DaemonLoop``).
    func markResumable() {
        MHD_resume_connection(connection)
    }

    /// Whether every query parameter's name and value is UTF-8.
    func queryIsUTF8() -> Bool {
        var valid = true
        _ = withUnsafeMutablePointer(to: &valid) { valid in
            MHD_get_connection_values_n(connection, .GET_ARGUMENT_KIND, { cls, _, key, keySize, value, valueSize in
                let isUTF8 = { (text: UnsafePointer<CChar>?, size: Int) in
                    text.map { String(validating: UnsafeRawBufferPointer(start: $0, count: size), as: UTF8.self) != nil } ?? true
                }
                guard isUTF8(key, keySize), isUTF8(value, valueSize) else {
                    cls?.assumingMemoryBound(to: Bool.self).pointee = false
                    return .NO
                }
                return .YES
            }, valid)
        }
        return valid
    }

    /// One lookup, no allocation but the value's: `_n` tells "absent"
    /// (`MHD_NO`) from "a key without a value" (`MHD_YES`, no value). (The
    /// plain lookup answers NULL for both; telling them apart by walking every
    /// value, a String each, cost a request with no credentials four walks.)
    private func lookup(_ kind: MHD_ValueKind, _ name: String) -> String? {
        var value: UnsafePointer<CChar>?
        var size = 0
        // The name's own bytes (a `var` copy for `withUTF8` was a retain
        // and a release at each of a request's dozen lookups).
        let found = name.utf8.withContiguousStorageIfAvailable { key in
            key.withMemoryRebound(to: CChar.self) { key in
                MHD_lookup_connection_value_n(connection, kind, key.baseAddress, key.count, &value, &size)
            }
        } ?? MHD_lookup_connection_value_n(connection, kind, name, name.utf8.count, &value, &size)
        guard found == .YES else { return nil }
        guard let value else { return "" }
        // A header's value without the white space after it (RFC 9112 5:
        // `field-name ":" OWS field-value OWS`). libmicrohttpd 0.9.75 skips
        // the white space before a value, not after: `Last-Event-ID: 7 `
        // was not a number, `Host: … ` not this server's.
        if kind == .HEADER_KIND {
            while size > 0, value[size - 1] == 0x20 || value[size - 1] == 0x09 { size -= 1 }
        }
        return String(decoding: UnsafeRawBufferPointer(start: value, count: size), as: UTF8.self)
    }
}
