/// What a request says, as a value: method, path, headers, query and body.
/// A live ``HTTPExchange`` makes one that looks its headers and query up in
/// libmicrohttpd on demand; a unit test makes one by hand, so routing and
/// endpoints can be tested without a socket.
public struct HTTPRequest: Sendable {
    /// The request method, e.g. `GET`.
    public var method: String
    /// The path without the query string, percent-decoded.
    public var path: String
    /// The body (at most the daemon's `maxBodyBytes`).
    public var body: [UInt8]
    /// True when the body was larger than allowed; ``body`` is then incomplete.
    public var bodyTooLarge: Bool
    private let headerLookup: @Sendable (String) -> String?
    private let queryLookup: @Sendable (String) -> String?
    private let addressLookup: @Sendable () -> String?

    /// A request made by hand. Header names match case-insensitively.
    public init(method: String, path: String, headers: [String: String] = [:], query: [String: String] = [:],
                body: [UInt8] = [], bodyTooLarge: Bool = false, clientAddress: String? = "127.0.0.1") {
        let lowered = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.init(method: method, path: path, body: body, bodyTooLarge: bodyTooLarge,
                  header: { lowered[$0.lowercased()] }, query: { query[$0] }, clientAddress: { clientAddress })
    }

    init(method: String, path: String, body: [UInt8], bodyTooLarge: Bool,
         header: @escaping @Sendable (String) -> String?, query: @escaping @Sendable (String) -> String?,
         clientAddress: @escaping @Sendable () -> String?) {
        self.method = method
        self.path = path
        self.body = body
        self.bodyTooLarge = bodyTooLarge
        headerLookup = header
        queryLookup = query
        addressLookup = clientAddress
    }

    /// The value of a request header (case-insensitive name); nil when absent.
    public func header(_ name: String) -> String? { headerLookup(name) }

    /// The value of a query-string argument, decoded; nil when absent, empty
    /// for an argument given without `=`.
    public func query(_ name: String) -> String? { queryLookup(name) }

    /// The client's IP address, e.g. `127.0.0.1` or `::1`.
    public var clientAddress: String? { addressLookup() }
}

extension HTTPExchange {
    /// This exchange's request as a value (its lookups go to libmicrohttpd,
    /// on the connection's worker thread, like the exchange's own).
    public var request: HTTPRequest {
        HTTPRequest(method: method, path: path, body: body, bodyTooLarge: bodyTooLarge,
                    header: { [unowned self] in self.header($0) }, query: { [unowned self] in self.query($0) },
                    clientAddress: { [unowned self] in self.clientAddress })
    }
}
