import Synchronization

/// What the C callbacks reach through their `cls` pointer.
final class DaemonContext: Sendable {
    let handler: any HTTPRequestHandler
    let configuration: HTTPDaemonConfiguration
    /// False once the daemon is quiesced: new connections are closed at once.
    let accepting = Atomic<Bool>(true)
    /// Resumes exchanges a batch at a time (``HTTPExchange/resumeInTurn()``).
    let resumeQueue: ResumeQueue

    init(handler: any HTTPRequestHandler, configuration: HTTPDaemonConfiguration) {
        self.handler = handler
        self.configuration = configuration
        resumeQueue = ResumeQueue(batchSize: configuration.resumeBatchSize,
                                  patience: .microseconds(configuration.resumePatienceMicroseconds))
    }
}
