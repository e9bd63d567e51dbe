import NIOSSL

/// The line protocol's TLS context (`--tcp-tls`), made from the same PEM
/// certificate and key as HTTPS: TLS 1.2 and newer.
public enum LineTLS {
    /// A server context for `certificatePEM` (a chain) and `keyPEM`.
    /// - Throws: NIOSSL's error when either is not valid PEM or they do not match.
    public static func context(certificatePEM: String, keyPEM: String) throws -> NIOSSLContext {
        let chain = try NIOSSLCertificate.fromPEMBytes(Array(certificatePEM.utf8)).map { NIOSSLCertificateSource.certificate($0) }
        let key = try NIOSSLPrivateKey(bytes: Array(keyPEM.utf8), format: .pem)
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        return try NIOSSLContext(configuration: configuration)
    }
}
