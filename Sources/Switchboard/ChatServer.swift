import Logging
import SwitchboardCore
import SwitchboardHTTP
import SwitchboardStore

/// One Switchboard process's worth of parts, started together: the SQLite
/// store, the message bus, the deadline thread and the HTTP server.
public final class ChatServer: @unchecked Sendable {
    /// The bus every transport shares.
    public let bus: MessageBus
    /// The durable store.
    public let store: any MessageStore
    /// The HTTP side.
    public let http: SwitchboardHTTPServer
    private let scheduler: DeadlineScheduler
    private let logger: Logger
    private var stopped = false

    /// Opens the store and starts serving.
    public init(configuration: ChatServerConfiguration, logger: Logger) throws {
        self.logger = logger
        let store = try SQLiteMessageStore(path: configuration.databasePath)
        self.store = store
        bus = try MessageBus(store: store, recentCapacity: configuration.recentMessages)
        scheduler = DeadlineScheduler()
        scheduler.start()
        do {
            http = try SwitchboardHTTPServer(configuration: configuration.http, bus: bus, store: store,
                                             scheduler: scheduler, logger: logger)
        } catch {
            scheduler.stop()
            try? store.close()
            throw error
        }
    }

    /// The bound HTTP port.
    public var httpPort: UInt16 { http.port }

    /// Graceful stop: no new connections, waiting long-polls answered, streams
    /// ended, daemon stopped, store closed. Every acknowledged message is
    /// already on disk. Idempotent.
    public func shutdown() {
        guard !stopped else { return }
        stopped = true
        http.shutdown()
        scheduler.stop()
        do {
            try store.close()
        } catch {
            logger.error("closing the store failed: \(error)")
        }
    }
}
