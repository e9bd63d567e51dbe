import Dispatch
import Logging
import MicroHTTPD
import SwitchboardAuth
import SwitchboardCore

/// The HTTP side of Switchboard, served by libmicrohttpd: publish, short
/// poll, long poll, SSE, rooms, health, metrics, the admin API and the web
/// pages, all on one ``MessageBus``.
///
/// The owner (``ChatServer``) stops it in two steps around closing the bus:
/// ``stopAccepting()``, then — once the bus is closed and every long poll and
/// stream has been woken to finish — ``stop()``.
public final class HTTPServer: Sendable {
    /// The port HTTP is served on.
    public let port: UInt16
    private let daemon: HTTPDaemon
    private let router: HTTPRouter
    private let admin: AdminEndpoints
    private let services: HTTPServices

    /// Binds and starts serving.
    /// - Parameters:
    ///   - scheduler: the server's one deadline thread (long-poll deadlines,
    ///     keepalive ticks); must be started.
    ///   - cluster: the other nodes on a shared store (kicks reach them; the
    ///     admin's stats list them); nil for a server on its own.
    ///   - access: who a request is and what it may do.
    ///   - accounts: registration, sessions and bans; nil serves none.
    ///   - conversationStore: conversations' lists, read markers, mutes; nil serves none.
    ///   - notices: typing and read notices to open streams.
    public init(configuration: HTTPServerConfiguration, bus: MessageBus, presence: Presence, connections: ConnectionDirectory, metrics: PrometheusExporter? = nil,
                upgrades: (any HTTPUpgradeEndpoint)? = nil, cluster: (any Cluster)? = nil,
                scheduler: DeadlineScheduler, access: AccessControl, accounts: AccountService?,
                conversationStore: (any ConversationStore)? = nil, notices: NoticeBoard = NoticeBoard(), logger: Logger) throws {
        let services = HTTPServices(configuration: configuration, bus: bus, presence: presence,
                                    connections: connections, metrics: metrics, upgrades: upgrades,
                                    cluster: cluster, scheduler: scheduler, access: access, accounts: accounts,
                                    conversationStore: conversationStore, notices: notices, logger: logger)
        self.services = services
        admin = AdminEndpoints(services: services)
        router = HTTPRouter(services: services, admin: admin)
        var daemonConfiguration = HTTPDaemonConfiguration(
            host: configuration.host, port: configuration.port, threadPoolSize: configuration.threads,
            connectionLimit: configuration.maxConnections, connectionTimeout: configuration.idleTimeoutSeconds,
            maxBodyBytes: configuration.maxBodyBytes, connectionMemoryLimit: configuration.connectionMemoryBytes,
            log: { message in
                // Clients vanishing mid-write is routine for streams; keep it out of the way.
                // So is a TLS client that went away (or spoke plain HTTP, or an old TLS) mid-handshake.
                let routine = message.contains("Failed to send") || message.contains("no longer available")
                    || message.contains("closed by remote") || message.contains("Failed to forward")
                    || message.contains("handshake")
                logger.log(level: routine ? .debug : .warning, "libmicrohttpd: \(message)")
            })
        daemonConfiguration.resumeBatchSize = configuration.wakeBatch
        daemonConfiguration.tls = configuration.tls
        daemon = try HTTPDaemon(configuration: daemonConfiguration, handler: router)
        port = daemon.port
        scheduler.repeating(every: configuration.keepaliveSeconds) {
            ServerSentEvents.sendKeepalives(on: bus)
        }
    }

    /// Who a WebSocket handshake arriving elsewhere (the wss listener) is,
    /// decided as the router decides it here: the token, the origin.
    public func upgradeIdentity(_ request: HTTPRequest) throws(SwitchboardError) -> Identity {
        try router.upgradeIdentity(request)
    }

    /// Serves `credentials` from the next TLS handshake on (SIGHUP); open
    /// connections keep theirs. Throws, keeping the current ones, when they
    /// cannot be loaded or do not match.
    public func reloadCertificate(_ credentials: TLSCredentials) throws {
        try daemon.reloadCertificate(credentials)
    }

    /// New connections are closed as soon as they are accepted; open ones go on.
    public func stopAccepting() {
        daemon.quiesce()
    }

    /// Ends the dashboards' streams, waits (up to the grace period) for every
    /// open request to finish — the bus must be closed, so long polls answer
    /// and streams end — then stops the daemon.
    public func stop() {
        daemon.quiesce()
        admin.feed.close()
        let grace = DispatchTime.now() + services.configuration.shutdownGraceSeconds
        if router.openExchanges.wait(timeout: grace) == .timedOut {
            services.logger.warning("stopping with requests still open after \(services.configuration.shutdownGraceSeconds) s")
        }
        daemon.stop()
    }
}
