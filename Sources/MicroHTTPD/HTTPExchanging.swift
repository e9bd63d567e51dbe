#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One request on its way to its answer, as a handler sees it: what was
/// asked, and how to wait (suspend, resume) without holding a thread. The
/// live one is libmicrohttpd's ``HTTPExchange``; a test may bring its own
/// (SwitchboardTesting's in-memory exchange runs requests through the
/// router with no socket at all).
public protocol HTTPExchanging: AnyObject, Sendable {
    /// The request method, e.g. `GET`.
    var method: String { get }
    /// The request path without the query string, percent-decoded.
    var path: String { get }
    /// The request body (at most the daemon's limit).
    var body: [UInt8] { get }
    /// Why a streamed body (``HTTPBodyReading``) was not read whole: the
    /// sink refused it, or a multipart body had no file part, two, or could
    /// not be parsed. Nil when it was (or when it was buffered).
    var bodyFailure: String? { get }
    /// The sink a streamed body went to, once: whoever takes it owns what
    /// was written (nil for a buffered body, or once taken).
    func takeBodySink() -> (any HTTPBodySink)?
    /// The request as a value (method, path, headers, query, body).
    var request: HTTPRequest { get }
    /// Headers added to whatever response this exchange sends. Worker thread only.
    var responseHeaders: [(name: String, value: String)] { get set }
    /// The client's IP address.
    var clientAddress: String? { get }
    /// The client's socket address (nil for an exchange with no socket):
    /// for telling clients apart without making text.
    var clientSocketAddress: UnsafePointer<sockaddr>? { get }
    /// A query-string argument, decoded; nil when absent.
    func query(_ name: String) -> String?
    /// A request header (case-insensitive name); nil when absent.
    func header(_ name: String) -> String?
    /// Runs `handler` once when the exchange ends.
    func onCompletion(_ handler: @escaping @Sendable (HTTPCompletion) -> Void)
    /// Parks a streaming response until ``resume()``.
    func suspend()
    /// Parks the request before its answer; on ``resume()`` the continuation answers.
    func suspend(continuingWith continuation: any HTTPContinuation)
    /// Leaves the request unanswered and not suspended until the daemon's
    /// next pass, when `continuation` is asked (and must answer or suspend:
    /// asked at every pass, the worker would never sleep); the handler then
    /// returns ``HTTPHandlerResult/askedAgain``. For an answer expected
    /// within a pass (a publish's commit). Worker thread only.
    func askAgain(continuingWith continuation: any HTTPContinuation)
    /// Calls `handler` (once, from any thread) if the client leaves while the exchange is suspended.
    /// On the worker thread, or on another while the exchange stays suspended and cannot be resumed.
    func watchHangup(_ handler: @escaping @Sendable () -> Void)
    /// Un-parks a suspended exchange; safe from any thread.
    func resume()
    /// ``resume()`` in its turn among many wake-ups; safe from any thread.
    func resumeInTurn()
}

extension HTTPExchange: HTTPExchanging {}

extension HTTPExchanging {
    /// None: an exchange with no socket (a test's).
    public var clientSocketAddress: UnsafePointer<sockaddr>? { nil }
}
