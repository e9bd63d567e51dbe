/// A browser's push subscription (its `PushSubscription` JSON), kept for
/// its user: where to send (`endpoint`) and the keys to encrypt for
/// (`p256dh`, the browser's P-256 public key, and `auth`, a 16-byte secret,
/// both base64url as the browser gave them).
public struct PushSubscription: Sendable, Equatable {
    public var user: String
    public var endpoint: String
    public var p256dh: String
    public var auth: String

    public init(user: String, endpoint: String, p256dh: String, auth: String) {
        self.user = user
        self.endpoint = endpoint
        self.p256dh = p256dh
        self.auth = auth
    }

    /// The most subscriptions one user keeps (one per browser or device).
    public static let perUser = 10
}
