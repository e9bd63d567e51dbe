import Synchronization
import SwitchboardCore

/// The figures the webhook dispatcher and the publish hook keep, shared, behind a lock.
public final class BackendCounters: Sendable {
    private let figures = Mutex(BackendFigures())

    public init() {}

    /// The figures now.
    public var current: BackendFigures { figures.withLock { $0 } }

    func update(_ body: (inout BackendFigures) -> Void) {
        figures.withLock { body(&$0) }
    }
}
