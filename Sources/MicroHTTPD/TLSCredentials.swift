/// A certificate and its key, in PEM, for serving HTTPS (libmicrohttpd's
/// TLS, over GnuTLS), and the protocol versions allowed.
public struct TLSCredentials: Sendable, Equatable {
    /// The certificate chain, PEM.
    public var certificatePEM: String
    /// The private key, PEM.
    public var keyPEM: String
    /// GnuTLS priorities: by default ``defaultPriorities``.
    public var priorities: String

    /// Mozilla's "intermediate" profile in GnuTLS's words: TLS 1.2 and 1.3
    /// only (1.0 and 1.1 are refused), AEAD ciphers only (AES-GCM and
    /// ChaCha20-Poly1305: no CBC, no SHA-1 MAC), forward-secret key
    /// exchange only (ECDHE, DHE). The line port and wss (BoringSSL, see
    /// `LineTLS`) offer the same suites.
    public static let defaultPriorities =
        "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2:-CIPHER-ALL:+AES-128-GCM:+AES-256-GCM:+CHACHA20-POLY1305"
        + ":-MAC-ALL:+AEAD:-KX-ALL:+ECDHE-ECDSA:+ECDHE-RSA:+DHE-RSA"

    public init(certificatePEM: String, keyPEM: String, priorities: String = TLSCredentials.defaultPriorities) {
        self.certificatePEM = certificatePEM
        self.keyPEM = keyPEM
        self.priorities = priorities
    }
}
