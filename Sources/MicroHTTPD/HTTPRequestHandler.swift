/// What a handler did with a request.
public enum HTTPHandlerResult {
    /// Send this response now.
    case respond(HTTPResponse)
    /// The handler called ``HTTPExchange/suspend()``; when someone calls
    /// ``HTTPExchange/resume()`` the handler is invoked again with the same
    /// exchange (its ``HTTPExchange/context`` kept).
    case suspended
}

/// Receives complete requests from an ``HTTPDaemon``.
///
/// Called on one of the daemon's worker threads; must not block for long.
public protocol HTTPRequestHandler: AnyObject, Sendable {
    /// Handles a request whose headers and body (up to the configured limit)
    /// have arrived. Called again after a suspended exchange is resumed.
    func handle(_ exchange: HTTPExchange) -> HTTPHandlerResult
}
