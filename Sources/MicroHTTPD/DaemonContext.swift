#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// What the C callbacks reach through their `cls` pointer.
final class DaemonContext: Sendable {
    let handler: any HTTPRequestHandler
    let configuration: HTTPDaemonConfiguration
    /// False once the daemon is quiesced: new connections are closed at once.
    let accepting = Atomic<Bool>(true)
    /// Resumes exchanges a batch at a time (``HTTPExchange/resumeInTurn()``).
    let resumeQueue: ResumeQueue
    /// The TLS options' strings (key, certificate, priorities), as C strings
    /// that live as long as the daemon; none without TLS.
    let tlsStrings: CStrings

    init(handler: any HTTPRequestHandler, configuration: HTTPDaemonConfiguration) {
        self.handler = handler
        self.configuration = configuration
        resumeQueue = ResumeQueue(batchSize: configuration.resumeBatchSize,
                                  patience: .microseconds(configuration.resumePatienceMicroseconds))
        tlsStrings = CStrings(configuration.tls.map { [$0.keyPEM, $0.certificatePEM, $0.priorities] } ?? [])
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
