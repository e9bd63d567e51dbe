import Dispatch
import Synchronization
import SwitchboardCore

/// Blocking forms of the bus's completion-based calls, for tests, which may
/// block; a server's threads never do.
extension MessageBus {
    /// Publishes `draft` and waits for its commit.
    @discardableResult
    public func publishAndWait(_ draft: MessageDraft) throws -> EncodedMessage {
        try Self.wait { done in publish(draft, completion: done) }.get()
    }

    /// Announces `draft` and waits for its commit: nil when the store did not announce it.
    public func announceAndWait(_ draft: MessageDraft) throws -> EncodedMessage? {
        try Self.wait { done in announce(draft, completion: done) }.get()
    }

    /// Publishes an act and waits: nil when it changed nothing.
    public func publishActAndWait(_ draft: MessageDraft) throws -> EncodedMessage? {
        try Self.wait { done in publishAct(draft, completion: done) }.get()
    }

    /// Deletes message `id` and waits: the tombstone, or nil when there was no such message.
    @discardableResult
    public func deleteAndWait(id: Int64) throws -> EncodedMessage? {
        try Self.wait { done in delete(id: id, completion: done) }.get()
    }

    private static func wait<Value: Sendable>(_ start: (@escaping @Sendable (Value) -> Void) -> Void) -> Value {
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Value?>(nil)
        start { value in
            outcome.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return outcome.withLock { $0! }
    }
}
