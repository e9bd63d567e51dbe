/// A response to queue on an ``HTTPExchange``: a status, headers and a body
/// that is either complete bytes or a stream produced on demand.
public struct HTTPResponse {
    /// The body of a response.
    public enum Body {
        /// Bytes known in full; copied once into libmicrohttpd.
        case bytes([UInt8])
        /// A response made once and queued on many exchanges
        /// (``SharedResponse``): its headers come first, then ``HTTPResponse/headers``.
        case shared(SharedResponse)
        /// A body of unknown length pulled from `source` as the socket drains
        /// (sent with chunked transfer encoding). `blockSize` is the most asked
        /// for in one read.
        case stream(any HTTPStreamBody, blockSize: Int)
        /// A `101 Switching Protocols`: once the head is sent, the socket is
        /// handed over (a duplicate descriptor the receiver owns, and the
        /// bytes libmicrohttpd had already read past the request). Never
        /// called when the client leaves before the 101 is sent.
        case upgrade(@Sendable (UpgradedSocket) -> Void)
        /// `length` bytes of an open file from `offset`, sent by the kernel
        /// (`sendfile` on plain connections), never read into memory.
        /// libmicrohttpd closes `descriptor` when the response is done.
        case file(descriptor: Int32, offset: Int64, length: Int64)
    }

    /// HTTP status code.
    public var status: Int
    /// Header fields, in order.
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: Body

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
