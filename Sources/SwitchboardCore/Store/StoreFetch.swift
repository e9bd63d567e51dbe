import Synchronization

/// A subscriber's catch-up from the store, read on the ``StoreGate``'s
/// threads rather than the subscriber's own: when its cursor is older than
/// the bus's ring, the pump starts a read here and the subscriber waits (its
/// connection suspended, its event loop free) until ``Subscriber/wake()``;
/// the next pump takes the result. One per subscriber.
public final class StoreFetch: Sendable {
    /// What the store gave for a cursor: every stored message after it
    /// (encoded, before the reader's access is applied) and how far the read got.
    typealias Batch = (messages: [EncodedMessage], scannedThrough: Int64)

    enum Stage: Sendable {
        case idle
        case underWay(after: Int64)
        case done(after: Int64, Result<Batch, SwitchboardError>)
    }

    let stage = Mutex<Stage>(.idle)

    public init() {}
}
