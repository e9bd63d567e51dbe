/// One request and its whole response at a time over a kept-alive
/// connection: what a publisher needs, plain or over TLS.
public protocol RequestResponseConnection: AnyObject {
    /// Sends a request (`body` with a Content-Length) and reads its response.
    func exchange(_ method: String, _ path: String, headers: [(String, String)], body: [UInt8]) throws -> TestResponse
}

extension TestHTTPConnection: RequestResponseConnection {
    public func exchange(_ method: String, _ path: String, headers: [(String, String)], body: [UInt8]) throws -> TestResponse {
        try sendRequest(method, path, headers: headers, body: body)
        return try readResponse(method: method)
    }
}
