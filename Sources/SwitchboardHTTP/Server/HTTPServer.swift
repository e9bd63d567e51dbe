import Dispatch
import Logging
import MicroHTTPD
import SwitchboardAuth
import SwitchboardCore
import SwitchboardWebPush

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
    /// The router and its services, served here.
    public let application: HTTPApplication
    private var router: HTTPRouter { application.router }
    private var admin: AdminEndpoints { application.admin }
    private var services: HTTPServices { application.services }

    /// Binds and starts serving ``HTTPApplication`` (see its parameters).
    public init(configuration: HTTPServerConfiguration, bus: MessageBus, presence: Presence, connections: ConnectionDirectory, metrics: PrometheusExporter? = nil,
                upgrades: (any HTTPUpgradeEndpoint)? = nil, cluster: (any Cluster)? = nil,
                scheduler: DeadlineScheduler, access: AccessControl, accounts: AccountService?,
                conversationStore: (any ConversationStore)? = nil, notices: NoticeBoard = NoticeBoard(), media: MediaService? = nil,
                push: WebPushService? = nil, acts: MessageActService? = nil, backend: (@Sendable () -> BackendFigures)? = nil,
                logger: Logger) throws {
        application = HTTPApplication(configuration: configuration, bus: bus, presence: presence, connections: connections,
                                      metrics: metrics, upgrades: upgrades, cluster: cluster, scheduler: scheduler, access: access,
                                      accounts: accounts, conversationStore: conversationStore, notices: notices, media: media, push: push,
                                      acts: acts, backend: backend, logger: logger)
        let router = application.router
        var daemonConfiguration = HTTPDaemonConfiguration(
            host: configuration.host, port: configuration.port, threadPoolSize: configuration.threads,
            connectionLimit: configuration.maxConnections, connectionTimeout: configuration.idleTimeoutSeconds,
            maxBodyBytes: configuration.maxBodyBytes, connectionMemoryLimit: configuration.connectionMemoryBytes,
            log: MicroHTTPDLog(logger: logger).log)
        daemonConfiguration.resumeBatchSize = configuration.wakeBatch
        daemonConfiguration.tls = configuration.tls
        daemonConfiguration.admission = configuration.connectionsPerAddress.map(AddressAdmission.init)
        // The commit thread is woken once per pass of a worker for the publishes the pass queued.
        daemonConfiguration.passes = DaemonPasses(started: { bus.deferCommitWakesOnThisThread() },
                                                  ended: { bus.releaseCommitWakes() },
                                                  stopped: { bus.endDeferringCommitWakes() })
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
