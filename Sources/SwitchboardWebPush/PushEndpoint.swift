import Foundation

/// A subscription's endpoint URL, checked before it is kept and again
/// before each delivery: `https://` on port 443 to a host whose every
/// address is public (browsers' push services use no other port; any port
/// let a subscriber aim the server's requests at a public host's SSH or
/// mail port), or any `http(s)://` to a host the operator admitted (`--push-allow-host`,
/// such as a test push service on loopback). No user info in the URL, and
/// redirects are never followed (the sender's client refuses them).
public struct PushEndpoint: Sendable, Equatable {
    /// Its host, lowercased (an IPv6 literal without its brackets).
    public let host: String
    /// Its host as the URL spells it (an IPv6 literal without its
    /// brackets): the name the HTTP client looks up, so the one a checked
    /// address is pinned for (``PinnedClients``).
    public let urlHost: String
    /// `scheme://host[:port]`, the port only when not the scheme's own: the VAPID token's audience.
    public let origin: String
    /// Whether the operator admitted this host (then its addresses are not checked).
    public let admitted: Bool
    /// A name (not an IP literal) on a host not admitted: its addresses are checked before each delivery.
    public let needsResolution: Bool

    /// Why an endpoint is refused.
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        case notAURL
        case notHTTPS
        case notPort443
        case notPublic(String)
        case notAHostName

        public var description: String {
            switch self {
            case .notAURL: "the endpoint is not an absolute http(s) URL of at most 2,048 characters with a host and no user info"
            case .notHTTPS: "the endpoint must be https://"
            case .notPort443: "the endpoint must be on https's port, 443"
            case .notPublic(let host): "the endpoint's host \(host) is not a public address"
            case .notAHostName: "the endpoint's host is neither a host name (letters, digits, hyphens, underscores, dots) nor an IP address"
            }
        }
    }

    /// Checks `text` against the rules that need no name resolution.
    /// `allowedHosts` are lowercased (``WebPushConfiguration/allowedHosts``).
    public init(_ text: String, allowedHosts: Set<String>) throws(Refusal) {
        guard text.utf8.count <= 2048, let url = URL(string: text), let scheme = url.scheme?.lowercased(),
              scheme == "https" || scheme == "http", let rawHost = url.host, !rawHost.isEmpty,
              url.user == nil, url.password == nil
        else { throw .notAURL }
        urlHost = rawHost.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let host = urlHost.lowercased()
        let admitted = allowedHosts.contains(host)
        var isName = false
        if !admitted {
            guard scheme == "https" else { throw .notHTTPS }
            guard url.port == nil || url.port == 443 else { throw .notPort443 }
            // A fully qualified name's final dot names the same host (`localhost.`).
            let name = host.hasSuffix(".") ? String(host.dropLast()) : host
            if name == "localhost" || name.hasSuffix(".localhost") || name.hasSuffix(".local") || name.hasSuffix(".internal") {
                throw .notPublic(host)
            }
            switch Self.literal(host) {
            case false?: throw .notPublic(host)
            case true?: break
            case nil:
                // The URL's host comes percent-decoded: a NUL, a `%` or a space would reach the resolver.
                guard Self.isHostName(name) else { throw .notAHostName }
                isName = true
            }
        }
        needsResolution = isName
        self.host = host
        // An origin names no default port (RFC 6454): a push service compares the VAPID audience with its own.
        let port = url.port.map { $0 == (scheme == "https" ? 443 : 80) ? "" : ":\($0)" } ?? ""
        origin = "\(scheme)://\(host.contains(":") ? "[\(host)]" : host)\(port)"
        self.admitted = admitted
    }

    /// Whether `name` (lowercased, no final dot) is a DNS host name: labels
    /// of 1 to 63 letters, digits, hyphens or underscores, 253 bytes at most.
    static func isHostName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...253).contains(bytes.count) else { return false }
        return bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).allSatisfy { label in
            (1...63).contains(label.count) && label.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            }
        }
    }

    /// For an IP literal: whether it is public; nil for a name. IPv4 in
    /// every form the resolver reads as an address (`inet_aton`: `127.1`,
    /// `0x7f000001`, `2130706433`, `0177.0.0.1`), not only dotted quads:
    /// each of those is 127.0.0.1 to getaddrinfo, so refused when kept,
    /// not only when sent. An IPv6 address with a zone is never public.
    static func literal(_ host: String) -> Bool? {
        var v4 = in_addr(), v6 = in6_addr()
        if inet_aton(host, &v4) != 0 {
            return PublicAddress.isPublic(ipv4: withUnsafeBytes(of: &v4) { Array($0) })
        }
        if inet_pton(AF_INET6, host, &v6) == 1 {
            return PublicAddress.isPublic(ipv6: withUnsafeBytes(of: &v6) { Array($0) })
        }
        // An IPv6 address with a zone (`fe80::1%eth0`) names one of this machine's links: never public.
        if let zone = host.firstIndex(of: "%"), inet_pton(AF_INET6, String(host[..<zone]), &v6) == 1 { return false }
        return nil
    }
}
