import SwitchboardCore

/// A test store that does something to writes or reads (stall them, fail
/// them) and hands everything to an ``InMemoryMessageStore``: the
/// forwarding, written once, with a hook before each write and each read.
public protocol ForwardingMessageStore: MessageStore {
    /// Where messages are kept.
    var inner: InMemoryMessageStore { get }
    /// Runs before every append and commit: may wait, or throw to fail it.
    func beforeWrite() throws
    /// Runs before every read of messages or rooms: may throw to fail it.
    func beforeRead() throws
}

extension ForwardingMessageStore {
    public func beforeWrite() throws {}
    public func beforeRead() throws {}

    public func append(_ drafts: [MessageDraft], timestamp: Int64) throws -> [Message] {
        try beforeWrite()
        return try inner.append(drafts, timestamp: timestamp)
    }
    public func commit(_ drafts: [MessageDraft], timestamp: Int64) throws -> [Message?] {
        try beforeWrite()
        return try inner.commit(drafts, timestamp: timestamp)
    }
    public func messages(after id: Int64, in filter: RoomFilter, limit: Int) throws -> StoreBatch {
        try beforeRead()
        return try inner.messages(after: id, in: filter, limit: limit)
    }
    public func latest(in room: String, limit: Int) throws -> [Message] {
        try beforeRead()
        return try inner.latest(in: room, limit: limit)
    }
    public func messages(in room: String, before id: Int64, limit: Int) throws -> [Message] {
        try beforeRead()
        return try inner.messages(in: room, before: id, limit: limit)
    }
    public func rooms() throws -> [RoomSummary] {
        try beforeRead()
        return try inner.rooms()
    }
    public func lastAssignedID() throws -> Int64 { try inner.lastAssignedID() }
    public func delete(id: Int64) throws -> Message? { try inner.delete(id: id) }
    public func replies(to id: Int64, in room: String, after cursor: Int64, limit: Int) throws -> [Message] {
        try inner.replies(to: id, in: room, after: cursor, limit: limit)
    }
    public func sizeInBytes() -> Int64 { 0 }
    /// Passes, as SQLite's probe passes on a full disk (it writes a temporary table).
    public func checkWritable() throws {}
    /// A write like any other: it fails while writes fail.
    public func checkDurableWrite() throws { try beforeWrite() }
    public func close() throws {}
}
