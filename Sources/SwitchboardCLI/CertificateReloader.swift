import Dispatch
import Foundation
import Logging
import Switchboard
import SwitchboardTCP

#if canImport(Glibc)
import Glibc
#endif

/// SIGHUP reads `--tls-cert` and `--tls-key` again and serves them from the
/// next handshake on, on HTTPS, wss (the HTTP port's and `--wss`'s) and
/// (with `--tcp-tls`) the line protocol, without closing a connection. A file that cannot be read, or a
/// pair that does not match, is logged and the current certificate stays.
struct CertificateReloader {
    let options: TLSOptions
    let logger: Logger

    /// Starts listening for SIGHUP; keep the returned source for as long as
    /// the server runs. Without TLS, SIGHUP is logged and otherwise ignored.
    func install(for server: ChatServer) -> any DispatchSourceSignal {
        signal(SIGHUP, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
        source.setEventHandler { reload(server) }
        source.resume()
        return source
    }

    private func reload(_ server: ChatServer) {
        do {
            guard let credentials = try options.credentials() else {
                return logger.info("SIGHUP: no --tls-cert to reload; nothing changed")
            }
            // HTTPS first: GnuTLS checks the pair and says what is wrong; nothing changes if it refuses.
            try server.reloadCertificate(credentials)
            if options.tcp || options.webSocket != nil {
                do {
                    let context = try LineTLS.context(certificatePEM: credentials.certificatePEM, keyPEM: credentials.keyPEM)
                    if options.tcp { server.tcp?.reloadTLS(context) }
                    server.webSocketTLS?.reloadTLS(context)
                } catch {
                    logger.error("SIGHUP: HTTPS took the new certificate; the line port and the wss port kept theirs: \(error)")
                    return
                }
            }
            logger.info("SIGHUP: serving the certificate in \(options.certificate ?? "") from the next handshake on")
        } catch {
            logger.error("SIGHUP: kept the current certificate: \(options.certificate ?? "") and \(options.key ?? ""): \(error)")
        }
    }
}
