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
    /// True when the query had more parameters than the daemon reads; it
    /// was then not read at all.
    public var tooManyParameters = false
    /// True when the path or the query is not UTF-8 once percent-decoded.
    public var targetNotUTF8 = false
    /// True when another HTTP parser could read where the body ends
    /// otherwise (two Content-Lengths, one beside Transfer-Encoding, a
    /// space before a header's colon, a CR alone in a header): answered
    /// with `Connection: close`.
    public var framingIsAmbiguous = false
    /// True when an HTTP/1.1 request has no `Host`, two, or one that no
    /// URI authority can be (RFC 9112 3.2): 400, `Connection: close`.
    public var hostIsInvalid = false
    /// True for an HTTP/1.0 request: it cannot be upgraded (RFC 6455 4.1, RFC 9110 7.8).
    public var isHTTP10 = false
    /// Where headers, query and address are looked up: the live exchange
    /// (no closure or copy per request), or else tables made by hand. Two
    /// stored values, not an enum of them: a look-up read the exchange out
    /// of the enum with a retain and a release (five a request), where a
    /// stored reference is used as it is.
    private let exchange: HTTPExchange?
    private let tables: Tables?
    private struct Tables: Sendable {
        var headers: [String: String]
        var query: [String: String]
        var clientAddress: String?
    }

    /// A request made by hand. Header names match case-insensitively.
    public init(method: String, path: String, headers: [String: String] = [:], query: [String: String] = [:],
                body: [UInt8] = [], bodyTooLarge: Bool = false, clientAddress: String? = "127.0.0.1") {
        let lowered = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.init(method: method, path: path, body: body, bodyTooLarge: bodyTooLarge, exchange: nil,
                  tables: Tables(headers: lowered, query: query, clientAddress: clientAddress))
    }

    private init(method: String, path: String, body: [UInt8], bodyTooLarge: Bool, exchange: HTTPExchange?, tables: Tables?) {
        self.method = method
        self.path = path
        self.body = body
        self.bodyTooLarge = bodyTooLarge
        self.exchange = exchange
        self.tables = tables
    }

    /// The request of a live exchange.
    init(_ exchange: HTTPExchange) {
        self.init(method: exchange.method, path: exchange.path, body: exchange.body, bodyTooLarge: exchange.bodyTooLarge,
                  exchange: exchange, tables: nil)
        tooManyParameters = exchange.tooManyParameters
        targetNotUTF8 = exchange.targetNotUTF8
        framingIsAmbiguous = exchange.framingIsAmbiguous
        hostIsInvalid = exchange.hostIsInvalid
        isHTTP10 = exchange.isHTTP10
    }

    /// The value of a request header (case-insensitive name); nil when absent.
    public func header(_ name: String) -> String? {
        if let tables { return tables.headers[name.lowercased()] }
        return exchange?.header(name)
    }

    /// The value of a query-string argument, decoded; nil when absent, empty
    /// for an argument given without `=`.
    public func query(_ name: String) -> String? {
        if let tables { return tables.query[name] }
        return exchange?.query(name)
    }

    /// The client's IP address, e.g. `127.0.0.1` or `::1`.
    public var clientAddress: String? {
        if let tables { return tables.clientAddress }
        return exchange?.clientAddress
    }
}

extension HTTPExchange {
    /// This exchange's request as a value (its lookups go to libmicrohttpd,
    /// on the connection's worker thread, like the exchange's own).
    public var request: HTTPRequest { HTTPRequest(self) }
}
