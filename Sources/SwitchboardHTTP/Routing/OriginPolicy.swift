import MicroHTTPD
import SwitchboardCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Which pages may use this server from a browser, and which `Host`s are
/// this server's.
///
/// A request's `Origin` is its own only when it names the request's `Host`
/// and that host is one the server knows as its own: an IP address,
/// `localhost`, the host of `--public-url` or of an `--allowed-origin`. A
/// page on a name that was made to point at this machine (DNS rebinding:
/// `Host: evil.example:8080`, `Origin: http://evil.example:8080`) is not.
/// When the server knows its name (`--public-url`) or is bound to one
/// address (not `0.0.0.0` or `::`), a `Host` that is none of these is
/// refused outright (421). `--allowed-origin` adds other sites' pages. A
/// request without `Origin` (curl, nc-like clients, native apps) is not a
/// browser's cross-site request.
public struct OriginPolicy: Sendable {
    private let allowed: Set<String>
    /// Host names (no port, lower case) that are this server's besides IP literals.
    private let names: Set<String>
    /// Whether a `Host` not among them is refused.
    let refusesOtherHosts: Bool

    /// - Parameters:
    ///   - allowed: origins such as `https://chat.example.com` (scheme, host, port if not the default).
    ///   - publicURL: the URL users reach the server at (`--public-url`), if given.
    ///   - boundHost: the address HTTP is bound to; a wildcard one says nothing about the server's names.
    public init(allowed: [String], publicURL: String? = nil, boundHost: String = "127.0.0.1") {
        self.allowed = Set(allowed.map(Self.normalized))
        var names: Set<String> = ["localhost"]
        for url in allowed + (publicURL.map { [$0] } ?? []) {
            if let host = Self.hostName(ofURL: url) { names.insert(host) }
        }
        self.names = names
        refusesOtherHosts = publicURL != nil || !["0.0.0.0", "::", ""].contains(boundHost)
    }

    static func normalized(_ origin: String) -> String {
        var origin = origin.lowercased()
        while origin.hasSuffix("/") { origin.removeLast() }
        return origin
    }

    /// Whether `request`'s `Host` (if any) is one of this server's names.
    /// On every request: an IPv4 literal (curl, health checks, benchmarks) is
    /// recognized in its bytes with no allocation; anything else is parsed.
    func isOwnHost(_ request: HTTPRequest) -> Bool {
        guard let host = request.header("Host") else { return true }  // HTTP/1.0
        if Self.isIPv4Authority(host) { return true }
        guard let name = Self.hostName(ofAuthority: host.lowercased()) else { return false }
        return names.contains(name) || Self.isIPLiteral(name)
    }

    /// `a.b.c.d` or `a.b.c.d:port`, each part 0-255, the port digits: read in place.
    static func isIPv4Authority(_ host: String) -> Bool {
        host.withUTF8Bytes(isIPv4Authority(bytes:))  // borrowed: a `var` copy for `withUTF8` was a retain and a release a request
    }

    /// ``isIPv4Authority(_:)`` over the bytes themselves (an iterator over
    /// `String.UTF8View` cost about 600 instructions a request).
    private static func isIPv4Authority(bytes host: UnsafeBufferPointer<UInt8>) -> Bool {
        var parts = 0, digits = 0, value = 0, inPort = false, portDigits = 0
        for byte in host {
            if inPort {
                guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"), portDigits < 5 else { return false }
                portDigits += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                guard digits <= 3, value <= 255 else { return false }
            case UInt8(ascii: "."), UInt8(ascii: ":"):
                guard digits > 0 else { return false }
                parts += 1
                digits = 0
                value = 0
                if byte == UInt8(ascii: ":") {
                    guard parts == 4 else { return false }
                    inPort = true
                }
            default:
                return false
            }
        }
        if inPort { return portDigits > 0 }
        return digits > 0 && parts == 3
    }

    /// Whether to refuse `request` for its `Host` (421) before anything else.
    func refusesHost(_ request: HTTPRequest) -> Bool {
        refusesOtherHosts && !isOwnHost(request)
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

    /// `http://HOST` or `https://HOST`, HOST the request's `Host` and one of ours.
    private func isSameOrigin(_ origin: String, _ request: HTTPRequest) -> Bool {
        guard let host = request.header("Host")?.lowercased(), isOwnHost(request) else { return false }
        let origin = Self.normalized(origin)
        return origin == "http://" + host || origin == "https://" + host
    }

    /// Whether `text` is a web origin a browser sends, `http(s)://host[:port]`
    /// (a trailing `/` allowed): no path, query, fragment or user, a port
    /// of digits. An `--allowed-origin` with a path would match no request.
    public static func isOrigin(_ text: String) -> Bool {
        let origin = normalized(text)
        let scheme = origin.hasPrefix("https://") ? 8 : origin.hasPrefix("http://") ? 7 : 0
        let authority = origin.dropFirst(scheme)
        guard scheme > 0, !authority.isEmpty, !authority.contains(where: { "/?#@ ".contains($0) }),
              let host = hostName(ofAuthority: String(authority)) else { return false }
        let port = authority.dropFirst(host.count)
        guard !port.isEmpty else { return true }
        return port.first == ":" && (2...6).contains(port.count) && port.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// `example.com` of `https://example.com:8443/x`.
    public static func hostName(ofURL url: String) -> String? {
        let lower = url.lowercased()
        guard let schemeEnd = lower.range(of: "://") else { return nil }
        let rest = lower[schemeEnd.upperBound...]
        return hostName(ofAuthority: String(rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }))
    }

    /// The host of `name:port`, `[v6]:port`, `v4` or `name`; nil when it is not one.
    static func hostName(ofAuthority authority: String) -> String? {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            return String(authority[...close])
        }
        let name = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        guard !name.isEmpty, !name.contains("@") else { return nil }
        return name.hasSuffix(".") ? String(name.dropLast()) : name
    }

    /// An IPv4 literal, or an IPv6 one in brackets: no name a page can make point here.
    static func isIPLiteral(_ host: String) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16)
        if host.hasPrefix("["), host.hasSuffix("]") {
            return inet_pton(AF_INET6, String(host.dropFirst().dropLast()), &buffer) == 1
        }
        return inet_pton(AF_INET, host, &buffer) == 1
    }

    /// Headers that let an allowed origin's page read the answer (every
    /// answer to it, a preflight's too: once, or a browser refuses them all).
    static func corsHeaders(_ origin: String) -> [(name: String, value: String)] {
        [("Access-Control-Allow-Origin", origin), ("Vary", "Origin"),
         ("Access-Control-Expose-Headers", "Location, Retry-After, WWW-Authenticate, Content-Range, ETag")]
    }

    /// The request headers the API reads that a browser sends only when a
    /// preflight allows them (the rest are CORS-safelisted).
    static let requestHeaders = "Authorization, Content-Type, Idempotency-Key, Last-Event-ID, Range, If-None-Match, If-Range"

    /// A preflight's own headers for an allowed origin, beside
    /// ``corsHeaders(_:)``: `methods`, every method a route takes.
    static func preflightHeaders(methods: String) -> [(name: String, value: String)] {
        [("Access-Control-Allow-Methods", methods), ("Access-Control-Allow-Headers", requestHeaders),
         ("Access-Control-Max-Age", "600")]
    }
}
