import Synchronization
import SwitchboardCore

/// A store whose writes fail while told to (a disk that filled up), or
/// whose reads fail too (a database that went away), and that works again
/// once told.
public final class FailingMessageStore: ForwardingMessageStore {
    public let inner = InMemoryMessageStore()
    private let failing = Atomic<Bool>(false)
    private let failingReads = Atomic<Bool>(false)

    /// The error every write throws while failing.
    public struct DiskFull: Error, CustomStringConvertible {
        public var description: String { "database or disk is full" }
    }

    public init() {}

    /// Makes every later write fail (true) or work again (false).
    public func failWrites(_ fail: Bool) { failing.store(fail, ordering: .releasing) }

    /// Makes every later read of messages or rooms fail (true) or work again (false).
    public func failReads(_ fail: Bool) { failingReads.store(fail, ordering: .releasing) }

    private func write() throws {
        if failing.load(ordering: .acquiring) { throw DiskFull() }
    }

    private func read() throws {
        if failingReads.load(ordering: .acquiring) { throw DiskFull() }
    }

    public func messages(after id: Int64, in filter: RoomFilter, limit: Int) throws -> StoreBatch {
        try read()
        return try inner.messages(after: id, in: filter, limit: limit)
    }
    public func latest(in room: String, limit: Int) throws -> [Message] {
        try read()
        return try inner.latest(in: room, limit: limit)
    }
    public func messages(in room: String, before id: Int64, limit: Int) throws -> [Message] {
        try read()
        return try inner.messages(in: room, before: id, limit: limit)
    }
    public func rooms() throws -> [RoomSummary] {
        try read()
        return try inner.rooms()
    }

    public func append(_ drafts: [MessageDraft], timestamp: Int64) throws -> [Message] {
        try write()
        return try inner.append(drafts, timestamp: timestamp)
    }
    public func commit(_ drafts: [MessageDraft], timestamp: Int64) throws -> [Message?] {
        try write()
        return try inner.commit(drafts, timestamp: timestamp)
    }
}
