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
    /// Its cursor is older than the ring, and the store is being read for it
    /// off its thread (``StoreFetch``): a ``Subscriber/wake()`` follows. (A
    /// pump that parks reports this as ``parked``: the same wait, to its caller.)
    case fetching
    /// It is cancelled (``Subscriber/isCancelled``) and was not parked.
    case cancelled
    /// It has something of its own to write (``Subscriber/isInterrupted``) and was not parked.
    case interrupted
}
