import Dispatch
import Synchronization
import SwitchboardCore

/// A store whose writes wait while its gate is closed: a disk that cannot
/// keep up, or has stalled. Reads go through at once.
public final class GatedMessageStore: ForwardingMessageStore, @unchecked Sendable {
    public let inner = InMemoryMessageStore()
    private let opened = DispatchSemaphore(value: 0)
    private let gated: Atomic<Bool>

    /// - Parameter closed: whether writes wait from the start.
    public init(closed: Bool = true) {
        gated = Atomic(closed)
    }

    /// Makes every later write wait until ``openGate()``.
    public func closeGate() { gated.store(true, ordering: .releasing) }

    /// Lets every waiting and later write through.
    public func openGate() {
        gated.store(false, ordering: .releasing)
        opened.signal()
    }

    /// Waits while the gate is closed.
    public func beforeWrite() {
        if gated.load(ordering: .acquiring) {
            opened.wait()
            opened.signal()
        }
    }
}
