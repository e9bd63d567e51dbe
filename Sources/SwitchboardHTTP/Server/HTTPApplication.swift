import Dispatch
import Logging
import MicroHTTPD
import SwitchboardAuth
import SwitchboardCore
import SwitchboardWebPush

/// The HTTP API without a listener: the router, its route table and the
/// services its endpoints use. ``HTTPServer`` serves it with libmicrohttpd;
/// a test may hand it exchanges of its own (SwitchboardTesting's
/// `RouterTestClient` runs requests through it with no socket).
public final class HTTPApplication: Sendable {
    let services: HTTPServices
    let admin: AdminEndpoints
    let router: HTTPRouter

    /// - Parameters:
    ///   - scheduler: the server's one deadline thread (long-poll deadlines,
    ///     keepalive ticks); must be started.
    ///   - cluster: the other nodes on a shared store (kicks reach them; the
    ///     admin's stats list them); nil for a server on its own.
    ///   - access: who a request is and what it may do.
    ///   - accounts: registration, sessions and bans; nil serves none.
    ///   - conversationStore: conversations' lists, read markers, mutes; nil serves none.
    ///   - notices: typing and read notices to open streams.
    ///   - media: uploads; nil serves none (503 `media_unavailable`).
    ///   - acts: Core's entry for publishes and acts (the server's one, with its publish hook); nil: one of its own.
    ///   - backend: what webhooks and the publish hook have done, for the admin's stats and `/metrics`; nil: neither is on.
    public init(configuration: HTTPServerConfiguration, bus: MessageBus, presence: Presence, connections: ConnectionDirectory,
                metrics: PrometheusExporter? = nil, upgrades: (any HTTPUpgradeEndpoint)? = nil, cluster: (any Cluster)? = nil,
                scheduler: DeadlineScheduler, access: AccessControl, accounts: AccountService?,
                conversationStore: (any ConversationStore)? = nil, notices: NoticeBoard = NoticeBoard(), media: MediaService? = nil,
                push: WebPushService? = nil, acts: MessageActService? = nil, backend: (@Sendable () -> BackendFigures)? = nil,
                logger: Logger) {
        services = HTTPServices(configuration: configuration, bus: bus, presence: presence,
                                connections: connections, metrics: metrics, upgrades: upgrades,
                                cluster: cluster, scheduler: scheduler, access: access, accounts: accounts,
                                conversationStore: conversationStore, notices: notices, media: media, push: push,
                                acts: acts, backend: backend, logger: logger)
        admin = AdminEndpoints(services: services)
        router = HTTPRouter(services: services, admin: admin)
    }

    /// Answers `exchange` as the server would (on the caller's thread, as a
    /// libmicrohttpd worker would be): now, or suspended until it is resumed.
    public func respond(to exchange: any HTTPExchanging) -> HTTPHandlerResult {
        router.handle(exchange)
    }

    /// Where `exchange`'s body goes, as the server decides it once the
    /// headers are in (buffered, or streamed to a route's sink).
    public func bodyReading(for exchange: any HTTPExchanging) -> HTTPBodyReading {
        router.bodyReading(for: exchange)
    }

    /// The largest request body read (``HTTPServerConfiguration/maxBodyBytes``).
    public var maxBodyBytes: Int { services.configuration.maxBodyBytes }
}
