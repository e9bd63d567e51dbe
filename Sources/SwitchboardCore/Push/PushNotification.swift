/// What one push says and how it is labelled (SPEC "Reaching people who
/// are away"): the payload a service worker shows, the `Topic` that lets a
/// newer notification of a room replace an older one, and its `TTL`. Made
/// from a message by the Web Push module (`init(message:conversation:)`),
/// kept by the ``PushStore`` until sent.
public struct PushNotification: Sendable, Equatable {
    /// `{"room","id","user","text","title"}`, the text cut to 200 characters.
    public let payload: [UInt8]
    /// At most 32 URL-safe characters derived from the room (RFC 8030 §5.4).
    public let topic: String
    /// Seconds a push service may keep it for a browser that is away.
    public let ttl: Int

    public init(payload: [UInt8], topic: String, ttl: Int) {
        self.payload = payload
        self.topic = topic
        self.ttl = ttl
    }
}
