/// What the C callbacks reach through their `cls` pointer.
final class DaemonContext {
    let handler: any HTTPRequestHandler
    let configuration: HTTPDaemonConfiguration

    init(handler: any HTTPRequestHandler, configuration: HTTPDaemonConfiguration) {
        self.handler = handler
        self.configuration = configuration
    }
}
