/// How ``MessageBus/pump(_:limit:park:)`` left a subscriber.
public enum PumpOutcome: Sendable, Equatable {
    /// It was given messages and asked to stop there.
    case delivered
    /// Nothing new: it is parked on the bus and `park` was called; a
    /// ``Subscriber/wake()`` will follow.
    case parked
    /// The bus is closed: nothing more will come.
    case closed
    /// Nothing new, and it was asked not to park (a short poll).
    case empty
    /// It is cancelled (``Subscriber/isCancelled``) and was not parked.
    case cancelled
    /// It has something of its own to write (``Subscriber/isInterrupted``) and was not parked.
    case interrupted
}
