/// The outcome of ``MessageBus/readOrPark(after:in:limit:for:park:)``.
public enum BusRead: Sendable {
    /// Messages after the cursor (maybe none when read without parking), and
    /// where the reader's cursor may move: past every id it has seen, matching
    /// or not.
    case messages(MessageBatch, scannedThrough: Int64)
    /// Nothing new: the subscriber is parked and `park` was called.
    case parked
    /// The bus is closed; nothing more will come.
    case closed
    /// The subscriber is cancelled (``Subscriber/isCancelled``): it was not parked.
    case cancelled
    /// Its cursor is older than the ring and the store is being read for it
    /// off its thread (``StoreFetch``): ``Subscriber/wake()`` follows.
    case fetching
    /// The subscriber has something of its own to write (``Subscriber/isInterrupted``): it was not parked.
    case interrupted
}
