import SwitchboardCore

/// Every rule about push subscriptions (SPEC "Reaching people who are
/// away"), in one place the HTTP endpoints call: who may subscribe (a
/// signed-in user), what a subscription must be (a safe endpoint, keys a
/// browser makes), how many one user keeps. Stored through the gate.
public final class WebPushService: Sendable {
    /// The VAPID public key browsers subscribe with (`applicationServerKey`).
    public let publicKey: String
    let store: any PushStore
    let gate: StoreGate
    let allowedHosts: Set<String>
    let sender: PushSender?

    /// - Parameters:
    ///   - key: the server's VAPID key.
    ///   - store: where subscriptions and the queue are kept.
    ///   - gate: how the store is reached.
    ///   - allowedHosts: `--push-allow-host`, lowercased: hosts admitted over http(s) whatever their addresses.
    ///   - sender: whose figures ``figures`` gives; nil in tests.
    public init(key: VAPIDKey, store: any PushStore, gate: StoreGate, allowedHosts: Set<String>, sender: PushSender? = nil) {
        publicKey = key.publicKeyBase64URL
        self.store = store
        self.gate = gate
        self.allowedHosts = allowedHosts
        self.sender = sender
    }

    /// What has been sent since start, and what waits.
    public var figures: PushFigures { sender?.figures ?? PushFigures() }

    /// Keeps the browser's subscription for the caller (again: its keys replaced).
    public func subscribe(endpoint: String, p256dh: String, auth: String, by identity: Identity,
                          completion: @escaping @Sendable (Result<Void, SwitchboardError>) -> Void) throws(SwitchboardError) {
        let user = try ConversationService.caller(identity)
        let subscription = try validSubscription(user: user, endpoint: endpoint, p256dh: p256dh, auth: auth)
        gate.run("a push subscription", { [store] in
            guard try store.subscribe(subscription, limit: PushSubscription.perUser) else {
                throw SwitchboardError(.conflict, code: "too_many_subscriptions",
                                       message: "A user keeps at most \(PushSubscription.perUser) push subscriptions; remove one first.")
            }
        }, completion: completion)
    }

    /// Forgets the caller's subscription at `endpoint`; 404 `no_such_subscription` when there is none.
    public func unsubscribe(endpoint: String, by identity: Identity,
                            completion: @escaping @Sendable (Result<Void, SwitchboardError>) -> Void) throws(SwitchboardError) {
        let user = try ConversationService.caller(identity)
        gate.run("a push unsubscription", { [store] in
            guard try store.unsubscribe(user: user, endpoint: endpoint) else {
                throw SwitchboardError(.notFound, code: "no_such_subscription", message: "You have no push subscription at that endpoint.")
            }
        }, completion: completion)
    }

    /// The subscription the fields describe, or why not (422 with the field named, 403 for an endpoint refused).
    func validSubscription(user: String, endpoint: String, p256dh: String, auth: String) throws(SwitchboardError) -> PushSubscription {
        do {
            _ = try PushEndpoint(endpoint, allowedHosts: allowedHosts)
        } catch {
            throw SwitchboardError(.forbidden, code: "endpoint_not_allowed", message: "Field 'endpoint': \(error.description).")
        }
        do {
            _ = try WebPushEncryption.receiverPublicKey(Base64URL.decode(p256dh) ?? [], authSecret: Base64URL.decode(auth) ?? [])
        } catch .badPublicKey {
            throw SwitchboardError(.invalid, code: "invalid_subscription",
                                   message: "Field 'keys.p256dh' must be a P-256 public key (65 bytes, uncompressed) in base64url.")
        } catch {
            throw SwitchboardError(.invalid, code: "invalid_subscription", message: "Field 'keys.auth' must be 16 bytes in base64url.")
        }
        return PushSubscription(user: user, endpoint: endpoint, p256dh: p256dh, auth: auth)
    }
}
