/// A certificate and its key, in PEM, for serving HTTPS (libmicrohttpd's
/// TLS, over GnuTLS), and the protocol versions allowed.
public struct TLSCredentials: Sendable, Equatable {
    /// The certificate chain, PEM.
    public var certificatePEM: String
    /// The private key, PEM.
    public var keyPEM: String
    /// GnuTLS priorities: TLS 1.2 and 1.3 only by default (1.0 and 1.1 are refused).
    public var priorities: String

    public init(certificatePEM: String, keyPEM: String,
                priorities: String = "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2") {
        self.certificatePEM = certificatePEM
        self.keyPEM = keyPEM
        self.priorities = priorities
    }
}
