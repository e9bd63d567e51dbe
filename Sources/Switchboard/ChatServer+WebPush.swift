import Logging
import NIOCore
import SwitchboardCore
import SwitchboardWebPush

/// Web Push's parts, started with the server when its store keeps push
/// subscriptions: the VAPID key (the configuration's file, or the one the
/// database keeps, made at first start so that every node signs with it),
/// the sender on the server's event loops, and the notifier on the bus.
struct WebPushParts {
    let service: WebPushService
    let sender: PushSender
    let notifier: PushNotifier

    /// Nil when the store keeps no push subscriptions. Nothing runs until ``start()``.
    static func make(_ configuration: WebPushConfiguration, store: any MessageStore, bus: MessageBus, presence: Presence,
                      group: any EventLoopGroup, subject: String, logger: Logger) throws -> WebPushParts? {
        guard let pushStore = store as? any PushStore else { return nil }
        let key: VAPIDKey
        if let pem = configuration.privateKeyPEM {
            key = try VAPIDKey(pem: pem)
        } else {
            key = try VAPIDKey(raw: try pushStore.vapidKey(candidate: VAPIDKey().raw))
        }
        let signer = VAPIDSigner(key: key, subject: configuration.subject ?? subject)
        let sender = PushSender(store: pushStore, gate: bus.gate, signer: signer, group: group,
                                allowedHosts: configuration.allowedHosts, logger: logger)
        let service = WebPushService(key: key, store: pushStore, gate: bus.gate, allowedHosts: configuration.allowedHosts,
                                     sender: sender)
        let notifier = PushNotifier(bus: bus, presence: presence, store: pushStore, sender: sender, logger: logger)
        return WebPushParts(service: service, sender: sender, notifier: notifier)
    }

    /// Notifies from the next commit on, and delivers what is queued (a restart's leftovers first).
    func start() {
        notifier.start()
        sender.start()
    }

    /// Stops the sender (what is under way is cut off and stays queued).
    func stop() {
        sender.shutdown()
    }
}
