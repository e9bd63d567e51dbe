import Foundation
import Logging
import MicroHTTPD
import SwitchboardAuth
import NIOPosix
import SwitchboardCore
import SwitchboardHTTP
import SwitchboardHooks
import SwitchboardMedia
import SwitchboardPostgres
import SwitchboardStore
import SwitchboardTCP
import SwitchboardWebSocket

/// One Switchboard process's worth of parts, started together: the store
/// (SQLite, or PostgreSQL shared with other nodes), the message bus,
/// presence, the deadline thread, the HTTP server and the raw TCP listener.
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
    /// wss on a port of its own (`--wss`), when enabled.
    public let webSocketTLS: WebSocketTLSListener?
    /// This node among the others on a PostgreSQL store; nil on SQLite.
    public let cluster: PostgresCluster?
    /// Who a client is and what it may do: every transport asks it.
    public let access: AccessControl
    /// Registration, sessions, bans.
    public let accounts: AccountService
    /// Connections counted by client address on every listener, each held to
    /// `--max-connections-per-address`; nil: no limit.
    public let connectionsPerAddress: ConnectionsPerAddress?
    /// Uploads; nil when the store keeps none.
    public let media: MediaService?
    /// Web Push; nil when the store keeps no subscriptions.
    let webPush: WebPushParts?
    /// Webhooks and the publish hook; nil when neither is configured.
    let backend: BackendParts?
    /// The media folder to remove at shutdown, when it was a throwaway one.
    let throwawayMedia: MediaDirectory?
    let scheduler: DeadlineScheduler
    let eventLoops: MultiThreadedEventLoopGroup
    let logger: Logger
    var stopped = false

    /// Opens the store and starts serving.
    /// - Parameter store: a store to use instead of the configuration's
    ///   database (a test's, e.g. one whose commits stall); it is closed at
    ///   shutdown. Accounts are then kept in memory unless it keeps them too.
    public init(configuration: ChatServerConfiguration, store given: (any MessageStore)? = nil, logger: Logger) throws {
        self.logger = logger
        let store: any MessageStore
        let cluster: PostgresCluster?
        if let given {
            store = given
            cluster = nil
        } else if PostgresURL.isPostgres(configuration.databasePath) {
            let shared = try PostgresMessageStore(url: PostgresURL(configuration.databasePath), nodeID: configuration.nodeID,
                                                  logger: logger)
            store = shared
            cluster = PostgresCluster(store: shared, address: configuration.http.host, logger: logger)
        } else {
            let sqlite = try SQLiteMessageStore(path: configuration.databasePath)
            if let last = sqlite.idsMovedOnAfter {
                logger.notice("\(configuration.databasePath) is a backup's copy, started for the first time: ids go on from \(last + SQLiteMessageStore.backupIDGap + 1), not \(last + 1), past any the original handed out after the backup (clients' cursors, webhook receivers' ids)")
            }
            (store, cluster) = (sqlite, nil)
        }
        self.store = store
        self.cluster = cluster
        let metrics = PrometheusExporter()
        let conversations = ConversationDirectory()
        let gate = StoreGate(timeoutSeconds: configuration.storeTimeoutSeconds)
        /// A start that failed closes the store as shutdown does: work queued
        /// during the start (the media usage's read) may be running.
        func closeStore() { Self.close(store, after: gate, logger: logger) }
        do {
            bus = try MessageBus(store: store, recentCapacity: configuration.recentMessages,
                                 stats: DeliveryStats(sink: metrics), conversations: conversations, gate: gate)
        } catch {
            closeStore()
            throw error
        }
        Self.logStoreHealth(of: bus, logger: logger)
        let conversationStore = store as? any ConversationStore
        do {
            // After the bus took its last id: a change committed since is applied again as it comes in (idempotent).
            if let conversationStore { conversations.load(try conversationStore.conversations()) }
        } catch {
            closeStore()
            throw error
        }
        let notices = NoticeBoard(cluster: cluster)
        let scheduler = DeadlineScheduler()
        self.scheduler = scheduler
        scheduler.start()
        presence = Presence(bus: bus, scheduler: scheduler, cluster: cluster)
        let (access, accounts, connections): (AccessControl, AccountService, ConnectionDirectory)
        do {
            (access, accounts, connections) = try Self.identity(configuration, store: store, presence: presence,
                                                                scheduler: scheduler, cluster: cluster, bus: bus)
        } catch {
            scheduler.stop()
            closeStore()
            throw error
        }
        self.access = access
        self.accounts = accounts
        self.connections = connections
        conversations.observe { [connections] changes in connections.membershipChanged(changes) }
        eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: configuration.tcpThreads)
        // On a shared store, the node holds a lease before it takes any
        // connection, so its users' presence claims count from the first.
        let (bus, presence, eventLoops) = (bus, presence, eventLoops)
        /// Undoes a start that failed part way.
        func abandon() {
            cluster?.stop()
            scheduler.stop()
            try? eventLoops.syncShutdownGracefully()
            closeStore()
        }
        do {
            try cluster?.start(Self.clusterHandlers(bus: bus, presence: presence, connections: connections, accounts: accounts,
                                                    notices: notices, logger: logger))
        } catch {
            abandon()
            throw error
        }
        let media: MediaService?
        var throwaway: MediaDirectory?
        do {
            backend = try BackendParts.make(configuration.hooks, store: store, bus: bus, limits: configuration.limits,
                                            group: eventLoops, node: configuration.nodeID, logger: logger)
            webPush = try WebPushParts.make(configuration.webPush, store: store, bus: bus, presence: presence,
                                            group: eventLoops, subject: configuration.http.publicURL ?? "mailto:admin@localhost", logger: logger)
            media = try (store as? any MediaStore).map { mediaStore in
                // On a shared database the files are kept in it (every node serves every file); the folder is this node's cache.
                let isThrowaway = configuration.mediaDirectoryIsThrowaway
                let removed = isThrowaway ? ThrowawayMediaFolders.removeAbandoned() : 0
                if removed > 0 { logger.info("removed \(removed) media folder(s) in \(NSTemporaryDirectory()) left by servers that were killed") }
                let path = configuration.resolvedMediaDirectory
                let folder: MediaDirectory
                do { folder = try MediaDirectory(path: path) } catch { throw MediaFolderError(path: path, underlying: error) }
                throwaway = isThrowaway ? folder : nil
                let files: any MediaFileStore = (store as? any MediaBlobStore).map { SharedMediaFiles(cache: folder, blobs: $0) } ?? folder
                return MediaService(bus: bus, access: access, store: mediaStore, files: files, images: VipsImages(), limits: configuration.media)
            }
        } catch {
            abandon()
            throw error
        }
        self.media = media
        throwawayMedia = throwaway
        // One entry for every publish and act, whatever the transport: the publish hook is asked there.
        let acts = MessageActService(bus: bus, access: access, limits: configuration.limits, media: media, review: backend?.review)
        if let media {
            Self.logUploadWrites(of: media, logger: logger)
            scheduler.repeating(every: 60) { [logger] in
                media.sweep(nowMilliseconds: MessageBus.systemClock()) { result in
                    if case .success(let count) = result, count > 0 { logger.info("media sweep: \(count) upload(s) deleted") }
                }
            }
        }
        // One count of connections per address for every listener.
        let perAddress = configuration.maxConnectionsPerAddress.map {
            ConnectionsPerAddress(limit: $0, limitsLoopback: configuration.limitsLoopbackConnections)
        }
        connectionsPerAddress = perAddress
        // TCP first: once HTTP answers /healthz, every listener is bound; a
        // TCP port in use stops the start with a clear error, never HTTP alone.
        do {
            tcp = try configuration.tcp.map {
                try TCPChatServer(configuration: $0, bus: bus, presence: presence, connections: connections, access: access,
                                  notices: notices, acts: acts, perAddress: perAddress, group: eventLoops, logger: logger)
            }
        } catch {
            abandon()
            throw TCPListenError(host: configuration.tcp?.host ?? "", port: configuration.tcp?.port ?? 0, underlying: error)
        }
        webSockets = WebSocketServer(
            configuration: configuration.webSocket,
            bus: bus, connections: connections, access: access, notices: notices, media: media, acts: acts,
            group: eventLoops, scheduler: scheduler, logger: logger)
        do {
            var httpConfiguration = configuration.http
            httpConfiguration.lineProtocolPort = tcp?.port
            httpConfiguration.connectionsPerAddress = perAddress
            http = try HTTPServer(configuration: httpConfiguration, bus: bus,
                                  presence: presence, connections: connections, metrics: metrics,
                                  upgrades: webSockets, cluster: cluster, scheduler: scheduler, access: access,
                                  accounts: accounts, conversationStore: conversationStore, notices: notices, media: media, push: webPush?.service,
                                  acts: acts, backend: backend?.figures, logger: logger)
        } catch {
            tcp?.closeAll()
            abandon()
            throw error
        }
        do {
            webSocketTLS = try configuration.webSocketTLS.map { [http, webSockets] address in
                try WebSocketTLSListener(server: webSockets, host: address.host, port: address.port, context: address.context,
                                         group: eventLoops, perAddress: perAddress, identity: { request in try http.upgradeIdentity(request) })
            }
        } catch {
            http.stop()
            tcp?.closeAll()
            abandon()
            throw TCPListenError(host: configuration.webSocketTLS?.host ?? "", port: configuration.webSocketTLS?.port ?? 0,
                                 underlying: error)
        }
        let host = configuration.http.host.contains(":") ? "[\(configuration.http.host)]" : configuration.http.host
        var publicURL = configuration.http.publicURL ?? "http\(configuration.http.tls == nil ? "" : "s")://\(host):\(http.port)"
        while publicURL.hasSuffix("/") { publicURL.removeLast() }
        tcp?.setMediaBaseURL(publicURL)
        webPush?.start()
        backend?.start(bus: bus, presence: presence)
        cluster?.advertise(address: "http://\(host):\(http.port)" + (tcp.map { " tcp \($0.port)" } ?? ""))
    }

    /// Serves `credentials` from the next TLS handshake on, on HTTPS and wss
    /// (SIGHUP); connections open now keep theirs. Throws, changing nothing,
    /// when they cannot be loaded or do not match. (The line protocol's
    /// listener takes its own context: ``TCPChatServer/reloadTLS(_:)``.)
    public func reloadCertificate(_ credentials: TLSCredentials) throws {
        try http.reloadCertificate(credentials)
    }

    /// The bound TCP port, when the listener is enabled.
    public var tcpPort: Int? { tcp?.port }

    /// The bound HTTP port.
    public var httpPort: UInt16 { http.port }
}
