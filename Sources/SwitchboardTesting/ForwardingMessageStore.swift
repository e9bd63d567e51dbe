import SwitchboardCore

/// A test store that does something to writes or reads (stall them, fail
/// them) and hands everything else to an ``InMemoryMessageStore``: the forwarding,
/// written once.
public protocol ForwardingMessageStore: MessageStore {
    /// Where messages are kept.
    var inner: InMemoryMessageStore { get }
}

extension ForwardingMessageStore {
    public func messages(after id: Int64, in filter: RoomFilter, limit: Int) throws -> StoreBatch {
        try inner.messages(after: id, in: filter, limit: limit)
    }
    public func latest(in room: String, limit: Int) throws -> [Message] { try inner.latest(in: room, limit: limit) }
    public func messages(in room: String, before id: Int64, limit: Int) throws -> [Message] {
        try inner.messages(in: room, before: id, limit: limit)
    }
    public func lastAssignedID() throws -> Int64 { try inner.lastAssignedID() }
    public func delete(id: Int64) throws -> Message? { try inner.delete(id: id) }
    public func rooms() throws -> [RoomSummary] { try inner.rooms() }
    public func sizeInBytes() -> Int64 { 0 }
    /// Passes, as SQLite's probe passes on a full disk (it writes a temporary table).
    public func checkWritable() throws {}
    public func close() throws {}
}
