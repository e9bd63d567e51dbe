import MicroHTTPD

/// The `Origin` allow-list (`--allowed-origin`): which other sites' pages
/// may use this server from a browser. A request without `Origin` (curl,
/// nc-like clients, native apps) is not a browser's cross-site request.
public struct OriginPolicy: Sendable {
    private let allowed: Set<String>

    /// - Parameter allowed: origins such as `https://chat.example.com` (scheme, host, port if not the default).
    public init(allowed: [String]) {
        self.allowed = Set(allowed.map(Self.normalized))
    }

    static func normalized(_ origin: String) -> String {
        var origin = origin.lowercased()
        while origin.hasSuffix("/") { origin.removeLast() }
        return origin
    }

    /// Whether `request`'s `Origin` (if any) is this server's own or allowed.
    func permits(_ request: HTTPRequest) -> Bool {
        guard let origin = request.header("Origin") else { return true }
        return isSameOrigin(origin, request) || allowed.contains(Self.normalized(origin))
    }

    /// The origin to answer with CORS headers: an allowed one, not our own.
    func corsOrigin(_ request: HTTPRequest) -> String? {
        guard let origin = request.header("Origin"), allowed.contains(Self.normalized(origin)), !isSameOrigin(origin, request) else {
            return nil
        }
        return origin
    }

    /// `http://HOST` or `https://HOST` where HOST is the request's `Host`.
    private func isSameOrigin(_ origin: String, _ request: HTTPRequest) -> Bool {
        guard let host = request.header("Host")?.lowercased() else { return false }
        let origin = Self.normalized(origin)
        return origin == "http://" + host || origin == "https://" + host
    }

    /// Headers that let an allowed origin's page read the answer.
    static func corsHeaders(_ origin: String) -> [(name: String, value: String)] {
        [("Access-Control-Allow-Origin", origin), ("Vary", "Origin"),
         ("Access-Control-Expose-Headers", "Location, Retry-After, WWW-Authenticate")]
    }

    /// A preflight's answer for an allowed origin.
    static func preflightHeaders(_ origin: String) -> [(name: String, value: String)] {
        corsHeaders(origin) + [("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS"),
                               ("Access-Control-Allow-Headers", "Authorization, Content-Type, Last-Event-ID"),
                               ("Access-Control-Max-Age", "600")]
    }
}
