/// The most recent published messages, in id order, with the promise that
/// every message with id > ``coveredAfter`` is here. Older reads go to the store.
/// Not thread-safe: lives inside ``MessageBus``'s lock.
struct RecentMessages {
    private var ring: [EncodedMessage?]
    private var head = 0
    private(set) var count = 0
    /// Every published message with a greater id is held here.
    private(set) var coveredAfter: Int64
    /// The last id published (or `coveredAfter` when none was).
    private(set) var lastID: Int64
    /// Ids in the ring that were deleted since: skipped by reads.
    private var deleted: Set<Int64> = []

    init(capacity: Int, coveredAfter: Int64) {
        ring = Array(repeating: nil, count: max(1, capacity))
        self.coveredAfter = coveredAfter
        self.lastID = coveredAfter
    }

    mutating func append(_ message: EncodedMessage) {
        precondition(message.id > lastID, "messages must be appended in id order")
        if count == ring.count {
            coveredAfter = ring[head]!.id
            deleted.remove(coveredAfter)
            ring[head] = nil
            head = (head + 1) % ring.count
            count -= 1
        }
        ring[(head + count) % ring.count] = message
        count += 1
        lastID = message.id
    }

    /// Hides a deleted message from reads.
    mutating func markDeleted(_ id: Int64) {
        if id > coveredAfter { deleted.insert(id) }
    }

    /// The position of message `id` in the ring, if it is there.
    private func index(of id: Int64) -> Int? {
        guard id > coveredAfter, id <= lastID else { return nil }
        let low = firstIndex(after: id - 1, below: count)
        return low < count && element(low).id == id ? low : nil
    }

    /// The position of the first message with an id > `cursor` among the
    /// first `end` (`end` when none is), bisected.
    private func firstIndex(after cursor: Int64, below end: Int) -> Int {
        var low = 0, high = end
        while low < high {
            let mid = (low + high) / 2
            if element(mid).id <= cursor { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// What the ring knows of message `id`: `.held` with it, `.absent` when
    /// the ring covers `id` and has no such message (never stored, or
    /// removed), `.unknown` when the store must be asked (older than the
    /// ring, or newer than its last: another node's, not read in yet).
    func lookUp(_ id: Int64) -> RingLookup {
        guard id > coveredAfter, id <= lastID else { return .unknown }
        guard let index = index(of: id), !deleted.contains(id) else { return .absent }
        return .held(element(index))
    }

    /// Puts `message` in place of the one with its id (an act changed it),
    /// if the ring holds it.
    mutating func replace(_ message: EncodedMessage) {
        guard let index = index(of: message.id) else { return }
        ring[(head + index) % ring.count] = message
    }

    /// Every edit of `target` in the ring, for an unsend to scrub.
    func edits(of target: Int64) -> [EncodedMessage] {
        (0..<count).map(element).filter { $0.message.kind == .edit && $0.message.target == target }
    }

    private func element(_ index: Int) -> EncodedMessage {
        ring[(head + index) % ring.count]!
    }

    /// Messages with id > `cursor` in `filter` that `access` sees, at most `limit`, and how far the
    /// scan got. `cursor` must be ≥ ``coveredAfter``.
    func read(after cursor: Int64, in filter: RoomFilter, access: RoomAccess, limit: Int)
        -> (messages: MessageBatch, scannedThrough: Int64)
    {
        // Nothing newer: where every pump of an up-to-date reader (each re-park) ends.
        guard cursor < lastID else { return (MessageBatch(), cursor) }
        var found = MessageBatch()
        var index = firstIndex(after: cursor)
        while index < count {
            let candidate = element(index)
            if shows(candidate, in: filter, to: access) {
                found.append(candidate)
                if found.count == limit { return (found, candidate.id) }
            }
            index += 1
        }
        return (found, max(cursor, lastID))
    }

    /// Whether ``read(after:in:access:limit:)`` would find anything: the
    /// same scan, stopping at the first, gathering nothing.
    func hasAny(after cursor: Int64, in filter: RoomFilter, access: RoomAccess) -> Bool {
        guard cursor < lastID else { return false }
        return (firstIndex(after: cursor)..<count).contains { shows(element($0), in: filter, to: access) }
    }

    /// The position of the first message with an id > `cursor`. A live
    /// reader is a message or a few behind: step back from the newest, and
    /// bisect only for a reader further behind.
    private func firstIndex(after cursor: Int64) -> Int {
        var low = count
        while low > 0, count - low < 8, element(low - 1).id > cursor { low -= 1 }
        if low > 0, element(low - 1).id > cursor { low = firstIndex(after: cursor, below: low) }
        return low
    }

    /// Whether a reader of `filter` with `access` is shown `candidate`
    /// (the deleted ids are hashed only when there are any).
    @inline(__always)
    private func shows(_ candidate: EncodedMessage, in filter: RoomFilter, to access: RoomAccess) -> Bool {
        filter.contains(candidate.message.room) && (deleted.isEmpty || !deleted.contains(candidate.id)) && access.sees(candidate)
    }
}

/// What ``RecentMessages/lookUp(_:)`` found.
enum RingLookup {
    case held(EncodedMessage)
    case absent
    case unknown
}
