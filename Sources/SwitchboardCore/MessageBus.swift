import Dispatch
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
    }

    let store: any MessageStore
    private let clock: @Sendable () -> Int64
    /// What every transport has delivered; transports record their writes here.
    public let stats: DeliveryStats
    let state: Mutex<State>
    /// Store reads (catch-ups older than the ring), encoded once for every reader.
    let catchUp: CatchUpCache
    /// Serialises store appends with ring appends.
    let publishing = Mutex<Void>(())
    /// Publishes waiting for the store, committed together.
    private let groupCommit = GroupCommit()

    /// - Parameters:
    ///   - store: where messages are kept; its last assigned id seeds the ring.
    ///   - recentCapacity: how many recent messages are kept in memory.
    ///   - clock: milliseconds since the Unix epoch, for message timestamps.
    ///   - stats: where publishes and deliveries are counted.
    public init(store: any MessageStore, recentCapacity: Int = 4096,
                clock: @escaping @Sendable () -> Int64 = MessageBus.systemClock,
                stats: DeliveryStats = DeliveryStats()) throws {
        self.store = store
        self.clock = clock
        self.stats = stats
        catchUp = CatchUpCache(capacity: 4096)
        let lastID = try store.lastAssignedID()
        state = Mutex(State(recent: RecentMessages(capacity: recentCapacity, coveredAfter: lastID)))
        groupCommit.start { [weak self] drafts in self?.commit(drafts) ?? .failure(.shuttingDown) }
    }

    /// The id of the last message published (or stored before start-up).
    public var lastID: Int64 { state.withLock { $0.recent.lastID } }

    /// Number of subscribers currently parked.
    public var parkedCount: Int { state.withLock { $0.parked.count } }

    /// Stores `draft` durably, then wakes every parked subscriber of its room.
    /// Returns once the message is stored: it is then acknowledged. (The
    /// calling thread waits for the group commit; see ``publish(_:completion:)``.)
    /// - Throws: ``SwitchboardError/shuttingDown`` after ``close()``, or
    ///   ``SwitchboardError/storeFailure(_:)`` when the store refuses it.
    @discardableResult
    public func publish(_ draft: MessageDraft) throws(SwitchboardError) -> EncodedMessage {
        guard let message = try announce(draft) else { throw SwitchboardError.storeFailure(Self.notKept) }
        return message
    }

    /// ``publish(_:)`` for a `join` or `leave`: nil when the store did not
    /// announce it, because on a store shared by several nodes the user is
    /// present on another node too (see ``MessageStore/commit(_:timestamp:)``).
    @discardableResult
    public func announce(_ draft: MessageDraft) throws(SwitchboardError) -> EncodedMessage? {
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<EncodedMessage?, SwitchboardError>?>(nil)
        groupCommit.submit(draft) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }

    /// Queues `draft` for the next group commit: everything waiting is stored
    /// in one transaction, ids in arrival order, and `completion` runs (on the
    /// commit thread) once it is durable and its room's subscribers are woken.
    /// Nobody's thread waits on the disk.
    public func publish(_ draft: MessageDraft, completion: @escaping @Sendable (Result<EncodedMessage, SwitchboardError>) -> Void) {
        groupCommit.submit(draft) { result in
            completion(result.flatMap { $0.map { .success($0) } ?? .failure(.storeFailure(Self.notKept)) })
        }
    }

    private static let notKept = "the store did not keep the message"

    /// Stores a group as one transaction and wakes its subscribers (the group
    /// commit's one function, run on its thread).
    private func commit(_ drafts: [MessageDraft]) -> Result<[EncodedMessage?], SwitchboardError> {
        let result: Result<Published, SwitchboardError> = publishing.withLock { _ in
            if state.withLock({ $0.closed }) { return .failure(.shuttingDown) }
            return appendLocked(drafts)
        }
        return result.map(deliver)
    }

    deinit {
        groupCommit.stop()
    }

    /// Deletes a stored message: it disappears from every later read, and a
    /// `delete` tombstone (its `text` the deleted id) is published in its room
    /// so live clients can remove it.
    /// - Returns: the tombstone, or nil when there is no such message.
    public func delete(id: Int64) throws(SwitchboardError) -> EncodedMessage? {
        let result: Result<Published, SwitchboardError>? = publishing.withLock { _ in
            if state.withLock({ $0.closed }) { return .failure(.shuttingDown) }
            let removed: Message?
            do { removed = try store.delete(id: id) } catch { return .failure(.storeFailure("\(error)")) }
            guard let removed, removed.kind != .delete else { return nil }
            state.withLock { $0.recent.markDeleted(id) }
            catchUp.remove(id)
            return appendLocked([MessageDraft(room: removed.room, user: MessageLimits.systemUser, text: String(id), kind: .delete)])
        }
        guard let result else { return nil }
        return try deliver(result.get())[0].map { $0 }
    }

    struct Published {
        /// One per draft: nil where the store kept no message.
        var messages: [EncodedMessage?]
        var woken: [ObjectIdentifier: any Subscriber]
        var storeNanoseconds: UInt64
    }

    /// Stores a group in one transaction, encodes each message, appends them
    /// to the ring and takes their rooms' subscribers. Call with `publishing` held.
    ///
    /// On a store shared by several nodes, other nodes may have committed ids
    /// between the ring's last and this group's first; those are read and
    /// appended first, so the ring stays a contiguous run of ids. If that
    /// read fails, nothing goes into the ring now: the group is durable
    /// (so acknowledged), and ``ingest()`` brings it in order later.
    private func appendLocked(_ drafts: [MessageDraft]) -> Result<Published, SwitchboardError> {
        let started = DeadlineScheduler.now()
        let stored: [Message?]
        do {
            stored = try store.commit(drafts, timestamp: clock())
        } catch {
            return .failure(.storeFailure("\(error)"))
        }
        let storeNanoseconds = DeadlineScheduler.now() - started
        let messages = stored.map { $0.map(EncodedMessage.init) }
        let own = messages.compactMap { $0 }
        var woken: [ObjectIdentifier: any Subscriber] = [:]
        if let first = own.first, let earlier = try? committedElsewhere(before: first.id) {
            state.withLock { state in
                for message in earlier + own { appendToRing(message, in: &state, waking: &woken) }
            }
        }
        return .success(Published(messages: messages, woken: woken, storeNanoseconds: storeNanoseconds))
    }

    /// Appends one message to the ring (a tombstone also hides the message it
    /// deletes) and takes its room's parked subscribers.
    func appendToRing(_ message: EncodedMessage, in state: inout State, waking woken: inout [ObjectIdentifier: any Subscriber]) {
        guard message.id > state.recent.lastID else { return }
        if message.message.kind == .delete, let deleted = Int64(message.message.text) {
            state.recent.markDeleted(deleted)
            catchUp.remove(deleted)
        }
        state.recent.append(message)
        for subscriber in state.parked.removeAll(interestedIn: message.message.room) {
            woken[ObjectIdentifier(subscriber)] = subscriber
        }
    }

    /// Counts the publishes and wakes their subscribers, outside every lock.
    private func deliver(_ published: Published) -> [EncodedMessage?] {
        let storeSeconds = Double(published.storeNanoseconds) / 1e9
        for _ in published.messages.compactMap({ $0 }) { stats.published(storeSeconds: storeSeconds) }
        for subscriber in published.woken.values { subscriber.wake() }
        return published.messages
    }

    /// Messages after `cursor` in `filter`, at most `limit`, without waiting.
    public func read(after cursor: Int64, in filter: RoomFilter, limit: Int) throws -> (messages: [EncodedMessage], scannedThrough: Int64) {
        var cursor = cursor
        while true {
            if let fromStore = try readStoreIfBehind(after: &cursor, in: filter, limit: limit) {
                return fromStore
            }
            let outcome = state.withLock { state -> (messages: [EncodedMessage], scannedThrough: Int64)? in
                guard cursor >= state.recent.coveredAfter else { return nil }
                return state.recent.read(after: cursor, in: filter, limit: limit)
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
            if let fromStore = try readStoreIfBehind(after: &cursor, in: filter, limit: limit) {
                return .messages(fromStore.messages, scannedThrough: fromStore.scannedThrough)
            }
            let outcome = state.withLock { state -> BusRead? in
                if subscriber.isCancelled { return .cancelled }
                guard cursor >= state.recent.coveredAfter else { return nil }
                let found = state.recent.read(after: cursor, in: filter, limit: limit)
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
    private func readStoreIfBehind(after cursor: inout Int64, in filter: RoomFilter, limit: Int) throws
        -> (messages: [EncodedMessage], scannedThrough: Int64)?
    {
        let behind = state.withLock { cursor < $0.recent.coveredAfter }
        guard behind else { return nil }
        let batch = try store.messages(after: cursor, in: filter, limit: limit)
        if !batch.messages.isEmpty {
            return (catchUp.encoded(batch.messages), batch.scannedThrough)
        }
        cursor = max(cursor, batch.scannedThrough)
        return nil
    }
}
