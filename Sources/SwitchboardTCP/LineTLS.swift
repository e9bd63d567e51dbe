import NIOSSL

/// The line protocol's TLS context (`--tcp-tls`), made from the same PEM
/// certificate and key as HTTPS: TLS 1.2 and newer, AEAD suites only
/// (Mozilla's "intermediate" profile, as libmicrohttpd's GnuTLS offers;
/// TLS 1.3's suites are all AEAD). BoringSSL never renegotiates as a server.
public enum LineTLS {
    /// TLS 1.2's suites: ECDHE with AES-GCM or ChaCha20-Poly1305, nothing with CBC or SHA-1.
    static let intermediateSuites = [
        "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-ECDSA-AES256-GCM-SHA384",
        "ECDHE-RSA-AES256-GCM-SHA384", "ECDHE-ECDSA-CHACHA20-POLY1305", "ECDHE-RSA-CHACHA20-POLY1305",
    ].joined(separator: ":")

    /// A server context for `certificatePEM` (a chain) and `keyPEM`.
    /// - Throws: NIOSSL's error when either is not valid PEM or they do not match.
    public static func context(certificatePEM: String, keyPEM: String) throws -> NIOSSLContext {
        let chain = try NIOSSLCertificate.fromPEMBytes(Array(certificatePEM.utf8)).map { NIOSSLCertificateSource.certificate($0) }
        let key = try NIOSSLPrivateKey(bytes: Array(keyPEM.utf8), format: .pem)
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        configuration.cipherSuites = intermediateSuites
        return try NIOSSLContext(configuration: configuration)
    }
}
