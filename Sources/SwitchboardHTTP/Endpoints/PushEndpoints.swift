import MicroHTTPD
import SwitchboardCore
import SwitchboardWebPush

/// Web Push's HTTP side (SPEC "Reaching people who are away"): the key
/// browsers subscribe with, and their subscriptions. The rules are
/// ``WebPushService``'s.
enum PushEndpoints {
    /// `GET /api/push/key` → `{"key": the VAPID public key, base64url}`.
    static func key(_ request: RouteRequest) throws -> HTTPHandlerResult {
        let push = try service(request)
        struct Key: Encodable { var key: String }
        return .respond(.json(200, MessageJSON.encode(Key(key: push.publicKey))))
    }

    /// `POST /api/push/subscriptions` with a browser's `PushSubscription` JSON → 201.
    static func subscribe(_ request: RouteRequest) throws -> HTTPHandlerResult {
        let push = try service(request)
        let fields = try RequestFields.decode(["endpoint", "keys"], contentType: request.exchange.header("Content-Type"),
                                              body: request.exchange.body)
        let endpoint = try string(fields["endpoint"], "endpoint")
        guard case .object(let keys)? = fields["keys"] else {
            throw SwitchboardError(.invalid, code: "invalid_subscription",
                                   message: "Field 'keys' must be an object with 'p256dh' and 'auth', as PushSubscription.toJSON() gives.")
        }
        let p256dh = try string(keys["p256dh"], "keys.p256dh"), auth = try string(keys["auth"], "keys.auth")
        return request.waiting(for: { done in
            try push.subscribe(endpoint: endpoint, p256dh: p256dh, auth: auth, by: request.identity, completion: done)
        }, answer: { _ in
            struct Subscribed: Encodable { var endpoint: String }
            return .json(201, MessageJSON.encode(Subscribed(endpoint: endpoint)))
        })
    }

    /// `DELETE /api/push/subscriptions {"endpoint"}` → 204.
    static func unsubscribe(_ request: RouteRequest) throws -> HTTPHandlerResult {
        let push = try service(request)
        let fields = try RequestFields.decode(["endpoint"], contentType: request.exchange.header("Content-Type"),
                                              body: request.exchange.body)
        let endpoint = try string(fields["endpoint"], "endpoint")
        return request.waiting(for: { done in
            try push.unsubscribe(endpoint: endpoint, by: request.identity, completion: done)
        }, answer: { _ in HTTPResponse(status: 204, headers: [], body: .bytes([])) })
    }

    private static func service(_ request: RouteRequest) throws(SwitchboardError) -> WebPushService {
        guard let push = request.services.push else {
            throw SwitchboardError(.notFound, code: "push_unavailable", message: "This server does not send push notifications.")
        }
        return push
    }

    private static func string(_ value: JSONValue?, _ name: String) throws(SwitchboardError) -> String {
        guard case .string(let text)? = value, !text.isEmpty else {
            throw SwitchboardError(.invalid, code: "missing_field", message: "Field '\(name)' (a string) is required.")
        }
        return text
    }
}
