import Dispatch
import Logging
import MicroHTTPD
import SwitchboardAuth
import SwitchboardCore
import SwitchboardWebPush

/// What the HTTP endpoints work with, handed to each at start-up. A class:
/// every request passes it around, and a struct of ten references was
/// copied (retaining each) at every hop.
final class HTTPServices: Sendable {
    let configuration: HTTPServerConfiguration
    let bus: MessageBus
    let presence: Presence
    let connections: ConnectionDirectory
    let metrics: PrometheusExporter?
    /// Requests that take their connection over (WebSocket); nil: none.
    let upgrades: (any HTTPUpgradeEndpoint)?
    /// The other nodes on a shared store; nil for a server on its own.
    let cluster: (any Cluster)?
    let scheduler: DeadlineScheduler
    /// Who a request is and what it may do.
    let access: AccessControl
    /// Registration, sessions and bans; nil where accounts are not kept.
    let accounts: AccountService?
    /// Conversations' lists, read markers and mutes; nil where the store keeps none.
    let conversationStore: (any ConversationStore)?
    /// Typing and read notices to open streams.
    let notices: NoticeBoard
    let origins: OriginPolicy
    /// Every rule about conversations (Core's, shared with every transport).
    let conversations: ConversationService
    /// Uploads (Core's rules); nil where the store keeps none.
    let media: MediaService?
    /// Replies, edits, unsends and reactions (Core's rules), and the one
    /// entry every publish goes through.
    let acts: MessageActService
    /// Push subscriptions (WebPushService's rules); nil where push is off.
    let push: WebPushService?
    /// What webhooks and the publish hook have done; nil where neither is on.
    let backend: (@Sendable () -> BackendFigures)?
    let logger: Logger
    /// The pages polls answered lately, made once each (``PageCache``).
    let pages = PageCache()
    /// Monotonic nanoseconds at start-up.
    let started = DeadlineScheduler.now()

    init(configuration: HTTPServerConfiguration, bus: MessageBus, presence: Presence,
         connections: ConnectionDirectory, metrics: PrometheusExporter?, upgrades: (any HTTPUpgradeEndpoint)?,
         cluster: (any Cluster)?, scheduler: DeadlineScheduler, access: AccessControl, accounts: AccountService?,
         conversationStore: (any ConversationStore)?, notices: NoticeBoard, media: MediaService? = nil,
         push: WebPushService? = nil, acts: MessageActService? = nil, backend: (@Sendable () -> BackendFigures)? = nil,
         logger: Logger) {
        self.media = media
        self.push = push
        self.backend = backend
        self.conversationStore = conversationStore
        self.notices = notices
        self.configuration = configuration
        self.bus = bus
        self.presence = presence
        self.connections = connections
        self.metrics = metrics
        self.upgrades = upgrades
        self.cluster = cluster
        self.scheduler = scheduler
        self.access = access
        self.accounts = accounts
        conversations = ConversationService(bus: bus, access: access, store: conversationStore, notices: notices,
                                            limits: configuration.limits)
        self.acts = acts ?? MessageActService(bus: bus, access: access, limits: configuration.limits, media: media)
        self.origins = OriginPolicy(allowed: configuration.allowedOrigins, publicURL: configuration.publicURL,
                                    boundHost: configuration.host)
        self.logger = logger
    }

    var limits: MessageLimits { configuration.limits }

    /// Who reads as the request names itself (`naming`, its `?user=`,
    /// validated), for presence: the token's user, a guest's chosen name, or nobody.
    func namedReader(_ identity: Identity, naming: String?) throws(SwitchboardError) -> String? {
        try access.speaker(identity, naming: naming, limits: limits)
    }
    var uptimeSeconds: Double { Double(DeadlineScheduler.now() - started) / 1e9 }
}
