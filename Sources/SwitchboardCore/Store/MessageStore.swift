/// Messages read from a store after a cursor.
public struct StoreBatch: Sendable {
    /// Matching messages, oldest first.
    public var messages: [Message]
    /// When the read was not cut short by its limit: the highest id assigned at
    /// the time of the read, so a reader may move its cursor there. Otherwise
    /// the id of the last message returned.
    public var scannedThrough: Int64

    public init(messages: [Message], scannedThrough: Int64) {
        self.messages = messages
        self.scannedThrough = scannedThrough
    }
}

/// Durable storage of messages. Appends are serialised by the caller
/// (``MessageBus``), so ids become visible in increasing order.
public protocol MessageStore: Sendable {
    /// Stores several messages in one transaction (one sync to disk), ids in
    /// order; all or none. Returns only once they would survive a crash.
    func append(_ drafts: [MessageDraft], timestamp: Int64) throws -> [Message]
    /// What the bus calls for each group commit: ``append(_:timestamp:)``,
    /// except that a store shared by several nodes treats each `join` and
    /// `leave` as this node's presence claim, and stores the message only
    /// when it is the user's first presence (or last) on any node. Those it
    /// does not store are nil. A store of one node stores everything.
    ///
    /// An act or a reply (a draft with a `target` or `reply_to`) is applied
    /// to the message it names in the same transaction (``MessageActs``);
    /// one that changes nothing is not stored (nil).
    func commit(_ drafts: [MessageDraft], timestamp: Int64) throws -> [Message?]
    /// Messages with id > `cursor` in `filter`, oldest first, at most `limit`.
    func messages(after cursor: Int64, in filter: RoomFilter, limit: Int) throws -> StoreBatch
    /// The last `limit` messages of a room, oldest first.
    func latest(in room: String, limit: Int) throws -> [Message]
    /// The last `limit` messages of a room with id < `id`, oldest first
    /// (paging back through the history).
    func messages(in room: String, before id: Int64, limit: Int) throws -> [Message]
    /// The replies to message `id` of `room` with id > `cursor`, oldest first, at most `limit`.
    func replies(to id: Int64, in room: String, after cursor: Int64, limit: Int) throws -> [Message]
    /// Deletes the message with this id; returns it, or nil when there is none.
    /// Its id is never assigned again.
    func delete(id: Int64) throws -> Message?
    /// The highest id ever assigned (0 for an empty store), deleted ones included.
    func lastAssignedID() throws -> Int64
    /// Every room with its count and last id.
    func rooms() throws -> [RoomSummary]
    /// Throws unless the store can take writes (`/healthz`'s probe: cheap,
    /// and it need not reach the disk).
    func checkWritable() throws
    /// Throws unless a durable write succeeds, a row written and committed
    /// as a message's would be: what `/healthz` asks, one at a time, while
    /// the last commit was refused (a full disk), so that a store that takes
    /// writes again is seen to without waiting for a publish.
    func checkDurableWrite() throws
    /// Size of the database on disk in bytes (0 in memory).
    func sizeInBytes() -> Int64
    /// Closes the store; no call may follow.
    func close() throws
    /// Whether joins and leaves are presence claims shared with other nodes
    /// (see ``commit(_:timestamp:)``): a `join` is then never taken back.
    var sharesPresence: Bool { get }
    /// Whether `error` (thrown by this store) means the store did not
    /// answer (a timeout, a lost connection) rather than that it refused
    /// the write (a full disk): a stall is what ``StoreGate/isStalled(now:)``
    /// reports while it lasts, and ends when the store answers again; a
    /// refusal makes `/healthz` 503 until a write succeeds.
    func didNotAnswer(_ error: any Error) -> Bool
}

extension MessageStore {
    /// A store of one node shares nothing.
    public var sharesPresence: Bool { false }

    /// Every failure is a refusal unless the store says otherwise.
    public func didNotAnswer(_ error: any Error) -> Bool { false }

    /// A store of one node: every draft is stored.
    public func commit(_ drafts: [MessageDraft], timestamp: Int64) throws -> [Message?] {
        try append(drafts, timestamp: timestamp)
    }
}
