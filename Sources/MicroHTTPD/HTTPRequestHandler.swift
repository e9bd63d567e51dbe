/// What a handler did with a request.
public enum HTTPHandlerResult {
    /// Send this response now.
    case respond(HTTPResponse)
    /// The handler called ``HTTPExchange/suspend(continuingWith:)``; when
    /// someone calls ``HTTPExchange/resume()`` the continuation answers.
    case suspended
    /// The handler called ``HTTPExchanging/askAgain(continuingWith:)``: the
    /// continuation is asked at the daemon's next pass, without the
    /// connection being suspended in between, and must then answer or
    /// suspend (never ask again: the connection would be served every pass).
    case askedAgain
}

/// Receives complete requests from an ``HTTPDaemon``.
///
/// Called on one of the daemon's worker threads; must not block for long.
public protocol HTTPRequestHandler: AnyObject, Sendable {
    /// Handles a request whose headers and body (up to the configured limit)
    /// have arrived.
    func handle(_ exchange: any HTTPExchanging) -> HTTPHandlerResult
    /// Where the request's body goes, asked once its headers are in (on the
    /// worker thread); the default buffers it.
    func bodyReading(for exchange: any HTTPExchanging) -> HTTPBodyReading
}

extension HTTPRequestHandler {
    public func bodyReading(for exchange: any HTTPExchanging) -> HTTPBodyReading { .buffer }
}

/// A request parked before its answer (a long poll): asked again, on the
/// connection's worker thread, each time the exchange is resumed.
public protocol HTTPContinuation: AnyObject {
    /// What to do now that the exchange was resumed: answer, or park again.
    func resumed(_ exchange: any HTTPExchanging) -> HTTPHandlerResult
}
