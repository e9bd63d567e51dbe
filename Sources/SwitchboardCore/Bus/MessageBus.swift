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
        /// Every room with a stored message (the rooms that exist:
        /// ``isKnownRoom(_:)``), with its count and last id, in name order,
        /// kept as messages enter the ring (``roomPage(after:limit:budget:visible:)``).
        var rooms = RoomDirectory()
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
    let groupCommit: GroupCommit
    /// How every store read that a connection waits for is made, and how
    /// long anyone waits for the store (the group commit included).
    public let gate: StoreGate
    /// The store's size and rooms as last read (the admin's figures), never waited for.
    public let storeFigures: StoreFigures
    /// Whether the store answers, for `/healthz`, never waited for.
    public let storeProbe: StoreProbe
    /// Whether the store takes writes (a full disk: every publish 503 until
    /// one is taken), told once each way; its clock is ``DeadlineScheduler/now()``'s.
    public let writes = WriteHealthWatch()
    /// Conversations and their members, changed by the events of messages
    /// as they enter the ring.
    public let conversations: ConversationDirectory
    /// Told of each group's newly stored messages on this node (``observeCommits(_:)``).
    let commitObservers = Mutex<[@Sendable ([EncodedMessage]) -> Void]>([])
    /// Told of what ``ingest()`` brought in from other nodes (``observeIngests(_:)``).
    let ingestObservers = Mutex<[@Sendable (Int) -> Void]>([])

    /// - Parameters:
    ///   - store: where messages are kept; its last assigned id seeds the ring.
    ///   - recentCapacity: how many recent messages are kept in memory.
    ///   - clock: milliseconds since the Unix epoch, for message timestamps.
    ///   - stats: where publishes and deliveries are counted.
    ///   - conversations: the membership every read is checked against.
    ///   - gate: where store reads run and how long a caller waits for the store.
    public init(store: any MessageStore, recentCapacity: Int = 4096,
                clock: @escaping @Sendable () -> Int64 = MessageBus.systemClock,
                stats: DeliveryStats = DeliveryStats(), conversations: ConversationDirectory = ConversationDirectory(),
                gate: StoreGate = StoreGate()) throws {
        self.store = store
        self.gate = gate
        groupCommit = GroupCommit(gate: gate)
        self.conversations = conversations
        self.clock = clock
        self.stats = stats
        catchUp = CatchUpCache(capacity: 4096)
        let lastID = try store.lastAssignedID()
        var initial = State(recent: RecentMessages(capacity: recentCapacity, coveredAfter: lastID))
        let rooms = try store.rooms()
        initial.rooms = RoomDirectory(rooms)
        state = Mutex(initial)
        let figures = { @Sendable () throws -> StoreFigures.Figures in
            StoreFigures.Figures(bytes: store.sizeInBytes(), readAt: DeadlineScheduler.now())
        }
        storeFigures = StoreFigures(gate: gate, initial: .init(bytes: store.sizeInBytes(), readAt: DeadlineScheduler.now()),
                                    read: figures)
        storeProbe = StoreProbe(gate: gate, check: { try store.checkWritable() }, durableCheck: { try store.checkDurableWrite() })
        groupCommit.start { [weak self] drafts in self?.commit(drafts) ?? .failure(.shuttingDown) }
    }

    /// Whether `room` has a stored message (here, or on another node once ingested).
    public func isKnownRoom(_ room: String) -> Bool {
        state.withLock { $0.rooms[room] != nil }
    }

    /// The id of the last message published (or stored before start-up).
    public var lastID: Int64 { state.withLock { $0.recent.lastID } }

    /// Number of subscribers currently parked.
    public var parkedCount: Int { state.withLock { $0.parked.count } }

    deinit {
        groupCommit.stop()
    }

    /// Messages after `cursor` in `filter` that `access` sees, at most
    /// `limit`, without waiting, reading the store on this thread when the
    /// cursor is older than the ring: for the server's own reads and tests,
    /// never a thread that serves connections (subscribers pump instead).
    /// `access` has no default: a reader's own, or `.everything` said out loud.
    public func read(after cursor: Int64, in filter: RoomFilter, access: RoomAccess, limit: Int) throws
        -> (messages: [EncodedMessage], scannedThrough: Int64)
    {
        var cursor = cursor
        while true {
            switch try readStoreIfBehind(after: &cursor, in: filter, access: access, limit: limit, for: nil, whileFetching: {}) {
            case .found(let messages, let scannedThrough): return (messages, scannedThrough)
            case .fetching: continue  // not without a subscriber
            case .readRing: break
            }
            let outcome = state.withLock { state -> (messages: [EncodedMessage], scannedThrough: Int64)? in
                guard cursor >= state.recent.coveredAfter else { return nil }
                let found = state.recent.read(after: cursor, in: filter, access: access, limit: limit)
                return (found.messages.array, found.scannedThrough)
            }
            if let outcome { return outcome }
        }
    }

    /// Messages after `cursor` for `subscriber`, without parking: from the
    /// ring, or from a store read made off this thread (``BusRead/fetching``
    /// while it is under way, after `whileFetching` was called: e.g. suspend
    /// the connection; ``Subscriber/wake()`` follows).
    func readWithoutParking(after cursor: Int64, limit: Int, for subscriber: any Subscriber,
                            whileFetching: () -> Void) throws -> BusRead {
        var cursor = cursor
        // Read once: its own thread changes them only while it is out of the bus.
        let (filter, access) = (subscriber.filter, subscriber.access)
        while true {
            switch try readStoreIfBehind(after: &cursor, in: filter, access: access, limit: limit,
                                         for: subscriber, whileFetching: whileFetching) {
            case .found(let messages, let scannedThrough): return .messages(MessageBatch(messages), scannedThrough: scannedThrough)
            case .fetching: return .fetching
            case .readRing: break
            }
            let outcome = state.withLock { state -> BusRead? in
                guard cursor >= state.recent.coveredAfter else { return nil }
                let found = state.recent.read(after: cursor, in: filter, access: access, limit: limit)
                return .messages(found.messages, scannedThrough: found.scannedThrough)
            }
            if let outcome { return outcome }
        }
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
}
