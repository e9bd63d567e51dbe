import Synchronization
import SwitchboardCore

/// A store whose writes fail while told to (a disk that filled up, a
/// database that went away) and work again once told; reads always work.
public final class FailingMessageStore: ForwardingMessageStore {
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
}
