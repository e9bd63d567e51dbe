import Logging
import Synchronization

/// What a server logged, kept for a test to read: pass ``logger`` to a
/// ``TestServer`` and read ``messages(atLeast:)`` afterwards.
public final class RecordedLogs: Sendable {
    private let entries = Mutex<[(level: Logger.Level, message: String)]>([])

    public init() {}

    /// A logger that records here everything at `level` or above.
    public func logger(level: Logger.Level = .info) -> Logger {
        var logger = Logger(label: "switchboard-test") { _ in RecordingLogHandler(logs: self) }
        logger.logLevel = level
        return logger
    }

    func record(_ level: Logger.Level, _ message: String) {
        entries.withLock { $0.append((level, message)) }
    }

    /// The messages logged at `level` or above, in order.
    public func messages(atLeast level: Logger.Level) -> [String] {
        entries.withLock { $0.filter { $0.level >= level }.map(\.message) }
    }
}
