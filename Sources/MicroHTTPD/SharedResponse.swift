import CMicroHTTPD

/// A complete response (headers and bytes) made in libmicrohttpd once and
/// queued on any number of exchanges, with any status: the page that a
/// thousand long polls waiting at the same message all get alike. Each
/// exchange then costs a reference, not a response of its own (its copy of
/// the bytes, a string for each header name and value, and freeing them
/// all when it is sent: about 4,500 instructions of a long poll's 40,000
/// under callgrind).
///
/// libmicrohttpd counts the response's references under its own lock, so
/// it lives until the last exchange that queued it has sent it, whatever
/// becomes of this object, and exchanges on any worker may queue it at once.
/// An exchange with headers of its own (``HTTPExchange/responseHeaders``,
/// e.g. CORS) gets a response of its own, made from ``headers`` and ``bytes``.
public final class SharedResponse: @unchecked Sendable {
    /// The header fields, in order.
    public let headers: [(name: String, value: String)]
    /// The body.
    public let bytes: [UInt8]
    /// libmicrohttpd's response; nil when it could not make one (out of
    /// memory): every exchange then makes its own, as ``HTTPResponse/Body/bytes(_:)``.
    let response: OpaquePointer?

    public init(headers: [(name: String, value: String)], bytes: [UInt8]) {
        self.headers = headers
        self.bytes = bytes
        response = makeResponse(bytes: bytes, headers: headers)
    }

    deinit {
        if let response { MHD_destroy_response(response) }
    }
}
