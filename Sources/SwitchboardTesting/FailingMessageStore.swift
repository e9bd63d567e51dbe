import Synchronization
import SwitchboardCore

/// A store whose writes fail while told to (a disk that filled up), or
/// whose reads fail too (a database that went away), and that works again
/// once told.
public final class FailingMessageStore: ForwardingMessageStore {
    public let inner = InMemoryMessageStore()
    private let failingWrites = Atomic<Bool>(false)
    private let failingReads = Atomic<Bool>(false)

    /// The error every write throws while failing.
    public struct DiskFull: Error, CustomStringConvertible {
        public var description: String { "database or disk is full" }
    }

    public init() {}

    /// Makes every later write fail (true) or work again (false).
    public func failWrites(_ fail: Bool) { failingWrites.store(fail, ordering: .releasing) }

    /// Makes every later read of messages or rooms fail (true) or work again (false).
    public func failReads(_ fail: Bool) { failingReads.store(fail, ordering: .releasing) }

    public func beforeWrite() throws {
        if failingWrites.load(ordering: .acquiring) { throw DiskFull() }
    }

    public func beforeRead() throws {
        if failingReads.load(ordering: .acquiring) { throw DiskFull() }
    }
}
