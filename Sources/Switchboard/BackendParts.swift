import Logging
import NIOCore
import SwitchboardCore
import SwitchboardHooks

/// An application's backend's parts (SPEC "An application's backend"),
/// started with the server when `--webhook` or `--publish-hook` is given:
/// the webhook dispatcher, woken by the bus's commits and told of users
/// coming online and going offline, and the publish hook's client, which
/// Core's ``MessageActService`` asks through a ``PublishReview``.
struct BackendParts {
    let counters: BackendCounters
    let dispatcher: WebhookDispatcher?
    let publishHook: PublishHookClient?
    /// What every publish on every transport goes through; nil without a publish hook.
    let review: PublishReview?

    /// Nil when neither is configured. Throws when they cannot work: no
    /// secret to sign with, or a store that keeps no queue.
    static func make(_ configuration: HookConfiguration, store: any MessageStore, bus: MessageBus, limits: MessageLimits,
                     group: any EventLoopGroup, node: String, logger: Logger) throws -> BackendParts? {
        guard configuration.isEnabled else { return nil }
        guard let secret = configuration.secret, !secret.isEmpty else { throw BackendSetupError.noSecret }
        let counters = BackendCounters()
        var dispatcher: WebhookDispatcher?
        if !configuration.webhooks.isEmpty {
            guard let queue = store as? any WebhookDispatcher.Store else { throw BackendSetupError.noQueue }
            // Woken by this node's commits and by other nodes' as they are
            // ingested (their NOTIFY, or the bus's slow timer when one is
            // lost); it looks on its own every 5 s besides.
            dispatcher = WebhookDispatcher(store: queue, gate: bus.gate, targets: configuration.webhooks, secret: secret, node: node,
                                           backlogLimit: configuration.backlogLimit,
                                           idleMilliseconds: 5_000,
                                           counters: counters, group: group, logger: logger)
        }
        let hook = configuration.publishHook.map {
            PublishHookClient(url: $0, secret: secret, timeoutMilliseconds: configuration.publishHookTimeoutMilliseconds,
                              group: group, counters: counters)
        }
        let review = hook.map { hook in
            PublishReview(hook: hook, failureAllows: configuration.publishHookFailureAllows, limits: limits) { failure in
                logger.warning("publish hook failed", metadata: ["why": "\(failure)"])
            }
        }
        return BackendParts(counters: counters, dispatcher: dispatcher, publishHook: hook, review: review)
    }

    /// What the admin's stats and `/metrics` show.
    var figures: @Sendable () -> BackendFigures { { [counters] in counters.current } }

    /// Webhooks from the next commit and presence change on (and what a restart left queued).
    func start(bus: MessageBus, presence: Presence) {
        guard let dispatcher else { return }
        bus.observeCommits { _ in dispatcher.wake() }
        bus.observeIngests { _ in dispatcher.wake() }
        presence.observeUsers { user, online in dispatcher.userChanged(user, online: online) }
        dispatcher.start()
    }

    /// Stops both clients (presence news not yet queued is queued first). Not on an event loop.
    func stop() {
        dispatcher?.shutdown()
        publishHook?.shutdown()
    }
}
