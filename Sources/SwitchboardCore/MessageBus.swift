import Synchronization

/// The one message bus: every transport publishes through it and reads from it.
///
/// A publish stores the message durably, encodes its JSON once, appends it to
/// a ring of recent messages and wakes the subscribers parked for its room —
/// in one serialised step, so the ring always holds a contiguous run of ids.
/// Subscribers carry only a cursor (the last id they have): reads after it
/// come from the ring, or from the store when the cursor is older than the
/// ring. Parking happens under the same lock as the ring read, so a message
/// published between "nothing new" and "parked" cannot be missed, and the
/// cursor only moves forward, so nothing is delivered twice.
/// ``pump(_:limit:park:)`` is the one delivery loop every transport uses.
public final class MessageBus: Sendable {
    struct State {
        var recent: RecentMessages
        var parked = ParkedSubscribers()
        var closed = false
        /// Every room with a stored message: the rooms that exist (``isKnownRoom(_:)``).
        var rooms: Set<String> = []
        /// Rooms whose only stored message is a `join` (its id and user):
        /// when that user leaves, the join is taken back instead of storing
        /// the leave (``announceLeave(_:)``). Rooms that existed before the
        /// start are never in it.
        var soleJoins: [String: (id: Int64, user: String)] = [:]
        /// Rooms not known yet with a `join` queued: whose came first (only
        /// that user's leave may find the room holding nothing but its join).
        var firstJoins: [String: String] = [:]
    }

    let store: any MessageStore
    let clock: @Sendable () -> Int64
    /// What every transport has delivered; transports record their writes here.
    public let stats: DeliveryStats
    let state: Mutex<State>
    /// Store reads (catch-ups older than the ring), encoded once for every reader.
    let catchUp: CatchUpCache
    /// Serialises store appends with ring appends.
    let publishing = Mutex<Void>(())
    /// Publishes waiting for the store, committed together.
    let groupCommit = GroupCommit()
    /// Whether the last group commit failed in the store (none has succeeded since).
    let lastCommitFailed = Atomic<Bool>(false)
    /// Conversations and their members, changed by the events of messages
    /// as they enter the ring.
    public let conversations: ConversationDirectory

    /// - Parameters:
    ///   - store: where messages are kept; its last assigned id seeds the ring.
    ///   - recentCapacity: how many recent messages are kept in memory.
    ///   - clock: milliseconds since the Unix epoch, for message timestamps.
    ///   - stats: where publishes and deliveries are counted.
    ///   - conversations: the membership every read is checked against.
    public init(store: any MessageStore, recentCapacity: Int = 4096,
                clock: @escaping @Sendable () -> Int64 = MessageBus.systemClock,
                stats: DeliveryStats = DeliveryStats(), conversations: ConversationDirectory = ConversationDirectory()) throws {
        self.store = store
        self.conversations = conversations
        self.clock = clock
        self.stats = stats
        catchUp = CatchUpCache(capacity: 4096)
        let lastID = try store.lastAssignedID()
        var initial = State(recent: RecentMessages(capacity: recentCapacity, coveredAfter: lastID))
        initial.rooms = Set(try store.rooms().map(\.name))
        state = Mutex(initial)
        groupCommit.start { [weak self] drafts in self?.commit(drafts) ?? .failure(.shuttingDown) }
    }

    /// Whether `room` has a stored message (here, or on another node once ingested).
    public func isKnownRoom(_ room: String) -> Bool {
        state.withLock { $0.rooms.contains(room) }
    }

    /// The id of the last message published (or stored before start-up).
    public var lastID: Int64 { state.withLock { $0.recent.lastID } }

    /// True while the last write to the store failed and none has succeeded
    /// since (a full disk, the database gone): `/healthz` answers 503.
    public var lastWriteFailed: Bool { lastCommitFailed.load(ordering: .relaxed) }

    /// Number of subscribers currently parked.
    public var parkedCount: Int { state.withLock { $0.parked.count } }

    deinit {
        groupCommit.stop()
    }

    /// Messages after `cursor` in `filter` that `access` sees, at most
    /// `limit`, without waiting. `access` has no default: a reader's own, or
    /// `.everything` said out loud (the server's own reads, tests).
    public func read(after cursor: Int64, in filter: RoomFilter, access: RoomAccess, limit: Int) throws
        -> (messages: [EncodedMessage], scannedThrough: Int64)
    {
        var cursor = cursor
        while true {
            if let fromStore = try readStoreIfBehind(after: &cursor, in: filter, access: access, limit: limit) {
                return fromStore
            }
            let outcome = state.withLock { state -> (messages: [EncodedMessage], scannedThrough: Int64)? in
                guard cursor >= state.recent.coveredAfter else { return nil }
                return state.recent.read(after: cursor, in: filter, access: access, limit: limit)
            }
            if let outcome { return outcome }
        }
    }

    /// Messages after `cursor` in `filter`; when there are none, parks `subscriber`
    /// and calls `park` (e.g. suspend the connection) while still holding the
    /// bus's lock, so that the wake-up can never come before the park.
    public func readOrPark(after cursor: Int64, in filter: RoomFilter, limit: Int,
                           for subscriber: any Subscriber, park: () -> Void) throws -> BusRead {
        var cursor = cursor
        while true {
            if let fromStore = try readStoreIfBehind(after: &cursor, in: filter, access: subscriber.access, limit: limit) {
                return .messages(fromStore.messages, scannedThrough: fromStore.scannedThrough)
            }
            let outcome = state.withLock { state -> BusRead? in
                if subscriber.isCancelled { return .cancelled }
                if subscriber.isInterrupted { return .interrupted }
                guard cursor >= state.recent.coveredAfter else { return nil }
                let found = state.recent.read(after: cursor, in: filter, access: subscriber.access, limit: limit)
                if !found.messages.isEmpty {
                    return .messages(found.messages, scannedThrough: found.scannedThrough)
                }
                if state.closed { return .closed }
                state.parked.insert(subscriber, filter: filter)
                park()
                return .parked
            }
            if let outcome { return outcome }
        }
    }

    /// Takes `subscriber` out of the bus if it is parked, and reports whether
    /// it was. The caller that gets `true` owns the wake-up.
    public func unpark(_ subscriber: any Subscriber) -> Bool {
        state.withLock { $0.parked.remove(subscriber) } != nil
    }

    /// Call after making `subscriber.isCancelled` true: wakes it if it is
    /// parked. If it is on its way to parking instead, the bus sees the flag
    /// under its lock and refuses (``BusRead/cancelled``), so nothing is lost.
    public func cancel(_ subscriber: any Subscriber) {
        if unpark(subscriber) { subscriber.wake() }
    }

    /// Takes out every parked subscriber passing `predicate`, and wakes each.
    /// Returns how many were woken.
    @discardableResult
    public func wakeAll(where predicate: (any Subscriber) -> Bool) -> Int {
        let woken = state.withLock { $0.parked.removeAll(where: predicate) }
        for subscriber in woken { subscriber.wake() }
        return woken.count
    }

    /// Whether ``close()`` has been called.
    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Refuses further publishes and parks, and wakes every parked subscriber so it
    /// can finish. Idempotent.
    public func close() {
        // Take the publishing lock so no publish is half done.
        let woken = publishing.withLock { _ in
            state.withLock { state in
                state.closed = true
                return state.parked.removeAll(where: { _ in true })
            }
        }
        for subscriber in woken { subscriber.wake() }
    }

    /// When `cursor` is older than the ring, reads from the store. Returns the
    /// store's messages when there are some; otherwise moves `cursor` to where
    /// the store's read got and returns nil (read the ring next).
    private func readStoreIfBehind(after cursor: inout Int64, in filter: RoomFilter, access: RoomAccess, limit: Int) throws
        -> (messages: [EncodedMessage], scannedThrough: Int64)?
    {
        let behind = state.withLock { cursor < $0.recent.coveredAfter }
        guard behind else { return nil }
        let batch = try store.messages(after: cursor, in: filter, limit: limit)
        let visible = catchUp.encoded(batch.messages).filter(access.sees)
        if !visible.isEmpty {
            return (visible, batch.scannedThrough)
        }
        cursor = max(cursor, batch.scannedThrough)
        return nil
    }
}
