import Synchronization

/// What the C callbacks reach through their `cls` pointer.
final class DaemonContext: Sendable {
    let handler: any HTTPRequestHandler
    let configuration: HTTPDaemonConfiguration
    /// False once the daemon is quiesced: new connections are closed at once.
    let accepting = Atomic<Bool>(true)
    /// Resumes exchanges a batch at a time (``HTTPExchange/resumeInTurn()``).
    let resumeQueue: ResumeQueue
    /// The TLS options' strings, as C strings that live as long as the daemon.
    let tlsStrings: [ContiguousArray<CChar>]

    init(handler: any HTTPRequestHandler, configuration: HTTPDaemonConfiguration) {
        self.handler = handler
        self.configuration = configuration
        resumeQueue = ResumeQueue(batchSize: configuration.resumeBatchSize,
                                  patience: .microseconds(configuration.resumePatienceMicroseconds))
        tlsStrings = configuration.tls.map { [$0.keyPEM.utf8CString, $0.certificatePEM.utf8CString, $0.priorities.utf8CString] } ?? []
    }
}
