/// One reader of the bus, on any transport: it follows some rooms from a
/// cursor, takes batches of messages, and is woken when news arrives.
///
/// Every delivery method (short poll, long poll, SSE, WebSocket, raw TCP) is one of
/// these, and ``MessageBus/pump(_:limit:park:)`` is the one loop that feeds
/// them all: read after the cursor, deliver, count, advance, park.
public protocol Subscriber: AnyObject, Sendable {
    /// What its deliveries are counted as.
    var transport: Transport { get }
    /// The rooms it follows.
    var filter: RoomFilter { get }
    /// Which conversations its reader may see: a private message passes only
    /// when this says so, whatever the filter (so a member removed stops
    /// receiving on every stream at once).
    var access: RoomAccess { get }
    /// The id of the last message it was given (or scanned past). Advanced
    /// by the pump, on the subscriber's own thread.
    var cursor: Int64 { get set }
    /// Takes a batch of messages (never empty), in id order. Returns whether
    /// the pump should read on at once (false: stop here, e.g. the socket's
    /// buffer is full or a one-shot answer is ready).
    func deliver(_ batch: MessageBatch) -> Bool
    /// Un-parks it (e.g. resumes the suspended connection). Called at most
    /// once per park, outside the bus's lock, by whoever took it out of the
    /// bus: a publish, a deadline, a keepalive tick or the shutdown.
    func wake()
    /// True once it must not be parked again (its stream ended, its user was
    /// kicked). Read by the bus under its lock, so a cancellation that races
    /// with a park is never lost; see ``MessageBus/cancel(_:)``.
    var isCancelled: Bool { get }
    /// True while it has something of its own to write (a notice): the bus
    /// then returns ``BusRead/interrupted`` rather than parking it. Read
    /// under the bus's lock, like ``isCancelled``.
    var isInterrupted: Bool { get }
    /// Its place on the bus while it waits, which only the bus touches
    /// (a `let` of its own: `let parkingSpot = ParkingSpot()`).
    var parkingSpot: ParkingSpot { get }
    /// Where its catch-ups from the store are read off its own thread
    /// (see ``StoreFetch``). Nil: read on the caller's thread, which only
    /// the server's own readers and tests may do; every transport has one.
    var storeFetch: StoreFetch? { get }
}

extension Subscriber {
    /// Subscribers are not cancellable unless they say so.
    public var isCancelled: Bool { false }
    /// Subscribers have nothing of their own to write unless they say so.
    public var isInterrupted: Bool { false }
    /// Subscribers read the store on their own thread unless they say otherwise.
    public var storeFetch: StoreFetch? { nil }
}
