import CMicroHTTPD

/// The certificate and key a TLS daemon serves with, replaceable while it
/// serves: libmicrohttpd asks for them at every handshake (the C glue's
/// `sb_tls_retrieve`), so a reload reaches every connection opened after it
/// and leaves open ones alone.
final class TLSCertificateSlot: @unchecked Sendable {  // the C slot has its own lock
    let slot: UnsafeMutablePointer<sb_tls_slot>

    /// Loads `credentials`; throws, saying why, when GnuTLS cannot read them
    /// or the key is not the certificate's.
    init(_ credentials: TLSCredentials) throws(MicroHTTPDError) {
        slot = sb_tls_slot_create(try Self.load(credentials))
    }

    /// Serves `credentials` from the next handshake on; the current ones stay
    /// when these cannot be loaded.
    func replace(with credentials: TLSCredentials) throws(MicroHTTPDError) {
        sb_tls_slot_replace(slot, try Self.load(credentials))
    }

    private static func load(_ credentials: TLSCredentials) throws(MicroHTTPDError) -> UnsafeMutablePointer<sb_tls_credentials> {
        var error: Int32 = 0
        let loaded = credentials.certificatePEM.withCString { certificate in
            credentials.keyPEM.withCString { key in
                sb_tls_credentials_load(certificate, strlen(certificate), key, strlen(key), &error)
            }
        }
        guard let loaded else {
            throw MicroHTTPDError(operation: "load the TLS certificate and key (\(String(cString: sb_tls_error_text(error))))", errno: 0)
        }
        return loaded
    }

    /// Only once the daemon has stopped: no handshake can ask any more.
    deinit {
        sb_tls_slot_destroy(slot)
    }
}
