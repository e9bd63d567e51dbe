/// How a server sends Web Push (`switchboard serve` options).
public struct WebPushConfiguration: Sendable {
    /// `--vapid-private-key FILE`'s PEM; nil: the key kept in the database (made at first start).
    public var privateKeyPEM: String?
    /// `--vapid-subject`: a `mailto:` or `https:` contact push services may use; nil: the server's public URL.
    public var subject: String?
    /// `--push-allow-host`: hosts admitted over http(s) whatever their addresses (a test push service on loopback), lowercased.
    public var allowedHosts: Set<String> {
        didSet { if allowedHosts.contains(where: { $0 != $0.lowercased() }) { allowedHosts = Set(allowedHosts.map { $0.lowercased() }) } }
    }

    public init(privateKeyPEM: String? = nil, subject: String? = nil, allowedHosts: Set<String> = []) {
        self.privateKeyPEM = privateKeyPEM
        self.subject = subject
        self.allowedHosts = Set(allowedHosts.map { $0.lowercased() })
    }
}
