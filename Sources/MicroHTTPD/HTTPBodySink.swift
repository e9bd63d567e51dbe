/// Where a request's body goes, decided by the handler once the request's
/// headers are in (``HTTPRequestHandler/bodyReading(for:)``).
public enum HTTPBodyReading {
    /// Into ``HTTPExchange/body``, up to the daemon's `maxBodyBytes` (the default).
    case buffer
    /// Each piece to `sink` as it arrives, however long the body is: an
    /// upload streamed to disk.
    case stream(any HTTPBodySink)
    /// The one part named `field` of a `multipart/form-data` body to
    /// `sink` (through libmicrohttpd's post processor), other parts skipped.
    case multipart(field: String, any HTTPBodySink)
    /// None of it: the handler is called at once and its answer ends the
    /// connection (a refusal that the body cannot change).
    case refuse
}

/// Takes a request body as it arrives, on the connection's worker thread
/// (``HTTPBodyReading``). The handler takes it back with
/// ``HTTPExchanging/takeBodySink()`` once the body is whole; if the
/// exchange ends before (the client left), ``abandon()`` is called instead.
public protocol HTTPBodySink: AnyObject {
    /// A multipart part begins, with its file name and `Content-Type` if it
    /// gave them. Return false to refuse the body (a second file part is
    /// refused by the reader before this is asked).
    func begin(fileName: String?, contentType: String?) -> Bool
    /// The next bytes. Return false to refuse the rest: the handler is then
    /// called at once (``HTTPExchanging/bodyFailure`` says why) and the
    /// connection closes after its answer.
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool
    /// The exchange ended before the handler took the sink: throw away
    /// whatever was written.
    func abandon()
    /// Why the sink refused, for ``HTTPExchanging/bodyFailure``.
    var refusal: String? { get }
}
