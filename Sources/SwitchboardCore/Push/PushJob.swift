/// One notification owed to one subscription, as the durable queue keeps
/// it: what to send and to where, how often it was tried, and when it is
/// due next (milliseconds since 1970).
public struct PushJob: Sendable, Equatable {
    public var id: Int64
    public var subscription: PushSubscription
    /// The notification's JSON before encryption (encrypted at each attempt, with a fresh key).
    public var payload: [UInt8]
    public var topic: String
    public var ttl: Int
    public var attempts: Int
    public var due: Int64
    /// When it was queued: after an hour of failures it is given up.
    public var created: Int64

    public init(id: Int64, subscription: PushSubscription, payload: [UInt8], topic: String, ttl: Int,
                attempts: Int, due: Int64, created: Int64) {
        self.id = id
        self.subscription = subscription
        self.payload = payload
        self.topic = topic
        self.ttl = ttl
        self.attempts = attempts
        self.due = due
        self.created = created
    }
}
