import Dispatch
import Synchronization

/// A `join` or `leave` queued for the group commit and not yet waited for:
/// see ``MessageBus/queueAnnouncement(_:)``.
public final class PendingAnnouncement: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let outcome = Mutex<Result<EncodedMessage?, SwitchboardError>?>(nil)

    init() {}

    /// Called once, by the commit.
    func complete(_ result: Result<EncodedMessage?, SwitchboardError>) {
        outcome.withLock { $0 = result }
        done.signal()
    }

    /// Waits for the commit: the stored message, nil when the store did not
    /// announce it (the user is present on another node), or the failure.
    /// Call once.
    public func wait() -> Result<EncodedMessage?, SwitchboardError> {
        done.wait()
        return outcome.withLock { $0! }
    }
}
