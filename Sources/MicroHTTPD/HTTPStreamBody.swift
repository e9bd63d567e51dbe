/// What a streaming body did when asked for bytes.
public enum HTTPStreamRead: Sendable, Equatable {
    /// `n` bytes (n > 0) were written at the start of the buffer.
    case wrote(Int)
    /// Nothing to send now; the body called ``HTTPExchange/suspend()`` and will
    /// call ``HTTPExchange/resume()`` when it has more. Never return this
    /// without suspending: libmicrohttpd would ask again at once, spinning a core.
    case suspended
    /// The stream is complete; the response ends cleanly.
    case end
    /// The stream failed; the connection is closed without a clean end.
    case abort
}

/// A response body produced while the response is being sent (e.g. SSE).
///
/// ``read(into:exchange:)`` is called on the connection's worker thread
/// whenever the socket can take more bytes. ``finish(_:)`` is called exactly
/// once, when libmicrohttpd releases the response (stream ended, client gone,
/// or daemon stopped).
public protocol HTTPStreamBody: AnyObject {
    /// Writes up to `buffer.count` bytes into `buffer`.
    func read(into buffer: UnsafeMutableRawBufferPointer, exchange: any HTTPExchanging) -> HTTPStreamRead
    /// The response has been released; no further reads follow.
    func finish()
}
