/// What one round of a webhook receiver's sender did (``WebhookDispatcher/deliver(to:)``).
enum DeliveryRound: Equatable {
    /// Nothing was due, or nothing due left the queue (each failed and waits for its retry).
    case idle
    /// Some of what was due left the queue, and the batch was not full: sleep until woken.
    case done
    /// A whole batch was due and some left the queue: more may be due at once.
    case full
}
