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
    /// Resumes exchanges a batch at a time (``HTTPExchange/resumeInTurn()``)
    /// for a pool of libmicrohttpd's threads; a ``DaemonLoop`` does it itself.
    let resumeQueue: ResumeQueue?
    /// Notices clients that leave while their connection is suspended.
    let hangups = HangupWatch()
    /// The thread that runs a daemon of one worker (nil: libmicrohttpd's own
    /// threads, a pool); see ``DaemonLoop``.
    let loop: DaemonLoop?
    /// The TLS priorities as a C string that lives as long as the daemon; none without TLS.
    let tlsStrings: CStrings
    /// The certificate and key served, replaceable; nil without TLS.
    let certificate: TLSCertificateSlot?

    init(handler: any HTTPRequestHandler, configuration: HTTPDaemonConfiguration) throws(MicroHTTPDError) {
        self.handler = handler
        self.configuration = configuration
        if configuration.threadPoolSize > 1 {
            loop = nil
            resumeQueue = ResumeQueue(batchSize: configuration.resumeBatchSize,
                                      patience: .microseconds(configuration.resumePatienceMicroseconds))
        } else {
            loop = try DaemonLoop(turnSize: configuration.resumeBatchSize, passes: configuration.passes)
            resumeQueue = nil
        }
        tlsStrings = CStrings(configuration.tls.map { [$0.priorities] } ?? [])
        certificate = try configuration.tls.map { tls throws(MicroHTTPDError) in try TLSCertificateSlot(tls) }
    }

    /// Ends the resume queue's and the hang-up watch's threads, for a
    /// daemon that did not start (``HTTPDaemon/stop()`` orders them itself).
    func stopHelpers() {
        resumeQueue?.stop()
        hangups.stop()
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
