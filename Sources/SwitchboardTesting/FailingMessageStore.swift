import Synchronization
import SwitchboardCore

/// A store whose writes fail while told to (a disk that filled up, a
/// database that went away) and work again once told; reads always work.
public final class FailingMessageStore: MessageStore {
    public let inner = InMemoryMessageStore()
    private let failing = Atomic<Bool>(false)

    /// The error every write throws while failing.
    public struct DiskFull: Error, CustomStringConvertible {
        public var description: String { "database or disk is full" }
    }

    public init() {}

    /// Makes every later write fail (true) or work again (false).
    public func failWrites(_ fail: Bool) { failing.store(fail, ordering: .releasing) }

    private func write() throws {
        if failing.load(ordering: .acquiring) { throw DiskFull() }
    }

    public func append(_ drafts: [MessageDraft], timestamp: Int64) throws -> [Message] {
        try write()
        return try inner.append(drafts, timestamp: timestamp)
    }
    public func commit(_ drafts: [MessageDraft], timestamp: Int64) throws -> [Message?] {
        try write()
        return try inner.commit(drafts, timestamp: timestamp)
    }
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
