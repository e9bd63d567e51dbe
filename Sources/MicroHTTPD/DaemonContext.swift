#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// What the C callbacks of one worker's daemon reach through their `cls`
/// pointer: the handler and configuration every worker shares, and the
/// worker's own loop.
final class DaemonContext: Sendable {
    let handler: any HTTPRequestHandler
    let configuration: HTTPDaemonConfiguration
    /// False once the daemon is quiesced: new connections are closed at once.
    let accepting = Atomic<Bool>(true)
    /// Notices clients that leave while their connection is suspended (one
    /// for every worker).
    let hangups: HangupWatch
    /// The thread that runs this worker's daemon; see ``DaemonLoop``.
    let loop: DaemonLoop
    /// The TLS priorities as a C string that lives as long as the daemon; none without TLS.
    let tlsStrings: CStrings
    /// The certificate and key served, replaceable; nil without TLS (one for every worker).
    let certificate: TLSCertificateSlot?

    init(handler: any HTTPRequestHandler, configuration: HTTPDaemonConfiguration, hangups: HangupWatch,
         certificate: TLSCertificateSlot?) throws(MicroHTTPDError) {
        self.handler = handler
        self.configuration = configuration
        self.hangups = hangups
        self.certificate = certificate
        loop = try DaemonLoop(turnSize: configuration.resumeBatchSize, passes: configuration.passes)
        tlsStrings = CStrings(configuration.tls.map { [$0.priorities] } ?? [])
    }
}

/// C strings copied once (`strdup`) and freed with their owner: what
/// libmicrohttpd's options point at for the daemon's whole life.
final class CStrings: @unchecked Sendable {
    let pointers: [UnsafeMutablePointer<CChar>]

    init(_ strings: [String]) {
        pointers = strings.map { strdup($0)! }
    }

    deinit {
        pointers.forEach { free($0) }
    }
}
