/// An event waiting in a receiver's queue.
public struct WebhookDelivery: Sendable, Equatable {
    public var event: WebhookEvent
    /// Attempts made so far.
    public var attempts: Int

    public init(event: WebhookEvent, attempts: Int) {
        self.event = event
        self.attempts = attempts
    }
}
