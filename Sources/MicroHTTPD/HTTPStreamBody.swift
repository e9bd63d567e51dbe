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
///
/// The daemon watches a stream's socket for its whole life (one `epoll_ctl`
/// a stream, none a write): a parked stream's connection is suspended, and
/// libmicrohttpd does not see a client close a suspended socket, so without
/// it only a failed write would tell (for SSE, the second keepalive after).
public protocol HTTPStreamBody: AnyObject, Sendable {
    /// Writes up to `buffer.count` bytes into `buffer`.
    func read(into buffer: UnsafeMutableRawBufferPointer, exchange: any HTTPExchanging) -> HTTPStreamRead
    /// The client closed its socket (or it was reset) while the stream was
    /// open; called once, on another thread. End the stream at its next read
    /// (``HTTPStreamRead/end``: a write to a gone client fails quietly),
    /// resuming it if it is parked.
    func clientLeft()
    /// The response has been released; no further reads follow.
    func finish()
}
