import Logging
import NIOPosix
import SwitchboardCore
import SwitchboardHTTP
import SwitchboardStore
import SwitchboardTCP
import SwitchboardWebSocket

/// One Switchboard process's worth of parts, started together: the SQLite
/// store, the message bus, presence, the deadline thread, the HTTP server and
/// the raw TCP listener.
public final class ChatServer: @unchecked Sendable {
    /// The bus every transport shares.
    public let bus: MessageBus
    /// The durable store.
    public let store: any MessageStore
    /// Who is online, across transports.
    public let presence: Presence
    /// Every open connection on every transport: counts, presence, kicks.
    public let connections: ConnectionDirectory
    /// The HTTP side.
    public let http: HTTPServer
    /// WebSocket connections (upgraded on the HTTP port).
    public let webSockets: WebSocketServer
    /// The raw TCP side, when enabled.
    public let tcp: TCPChatServer?
    private let scheduler: DeadlineScheduler
    private let eventLoops: MultiThreadedEventLoopGroup
    private let logger: Logger
    private var stopped = false

    /// Opens the store and starts serving.
    public init(configuration: ChatServerConfiguration, logger: Logger) throws {
        self.logger = logger
        let store = try SQLiteMessageStore(path: configuration.databasePath)
        self.store = store
        let metrics = PrometheusExporter()
        bus = try MessageBus(store: store, recentCapacity: configuration.recentMessages,
                             stats: DeliveryStats(sink: metrics))
        scheduler = DeadlineScheduler()
        scheduler.start()
        presence = Presence(bus: bus, scheduler: scheduler)
        connections = ConnectionDirectory(presence: presence)
        eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: configuration.tcpThreads)
        // TCP first: once HTTP answers /healthz, every listener is bound; a
        // TCP port in use stops the start with a clear error, never HTTP alone.
        let (bus, presence, eventLoops, connections) = (bus, presence, eventLoops, connections)
        do {
            tcp = try configuration.tcp.map {
                try TCPChatServer(configuration: $0, bus: bus, presence: presence, connections: connections, group: eventLoops, logger: logger)
            }
        } catch {
            scheduler.stop()
            try? eventLoops.syncShutdownGracefully()
            try? store.close()
            throw TCPListenError(host: configuration.tcp?.host ?? "", port: configuration.tcp?.port ?? 0, underlying: error)
        }
        webSockets = WebSocketServer(
            configuration: WebSocketConfiguration(keepaliveSeconds: configuration.http.keepaliveSeconds, limits: configuration.http.limits),
            bus: bus, connections: connections, group: eventLoops, scheduler: scheduler, logger: logger)
        do {
            http = try HTTPServer(configuration: configuration.http, bus: bus, store: store,
                                  presence: presence, connections: connections, metrics: metrics,
                                  webSockets: webSockets, scheduler: scheduler, logger: logger)
        } catch {
            tcp?.closeAll()
            scheduler.stop()
            try? eventLoops.syncShutdownGracefully()
            try? store.close()
            throw error
        }
    }

    /// The bound TCP port, when the listener is enabled.
    public var tcpPort: Int? { tcp?.port }

    /// The bound HTTP port.
    public var httpPort: UInt16 { http.port }

    /// Graceful stop: no new connections, waiting long-polls answered, streams
    /// ended, daemon stopped, store closed. Every acknowledged message is
    /// already on disk. Idempotent.
    public func shutdown() {
        guard !stopped else { return }
        stopped = true
        tcp?.stopAccepting()
        http.stopAccepting()
        bus.close()  // no more publishes; every parked long poll and stream woken to finish
        http.stop()
        webSockets.closeAll()
        tcp?.closeAll()
        try? eventLoops.syncShutdownGracefully()
        scheduler.stop()
        do {
            try store.close()
        } catch {
            logger.error("closing the store failed: \(error)")
        }
    }
}
