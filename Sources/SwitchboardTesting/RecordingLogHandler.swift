import Logging

/// A swift-log handler that hands every message to ``RecordedLogs``.
struct RecordingLogHandler: LogHandler {
    let logs: RecordedLogs
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        logs.record(event.level, "\(event.message)")
    }
}
