import MicroHTTPD
import Synchronization
import SwitchboardCore

/// Pushes the admin stats, once a second, to every open dashboard stream.
/// The snapshot is built once per tick for all of them, and the tick runs on
/// the server's one ``DeadlineScheduler`` only while a dashboard is open.
final class AdminStatsFeed: Sendable {
    private struct State {
        var streams: [ObjectIdentifier: AdminStatsStream] = [:]
        var ticking = false
        var closed = false
    }

    private let state = Mutex(State())
    private let scheduler: DeadlineScheduler
    private let snapshot: @Sendable () -> [UInt8]

    init(scheduler: DeadlineScheduler, snapshot: @escaping @Sendable () -> [UInt8]) {
        self.scheduler = scheduler
        self.snapshot = snapshot
    }

    /// A new dashboard stream for `exchange`, sent a first snapshot at once.
    func open(_ exchange: any HTTPExchanging) -> AdminStatsStream? {
        let stream = AdminStatsStream(exchange: exchange) { [weak self] stream in
            self?.state.withLock { _ = $0.streams.removeValue(forKey: ObjectIdentifier(stream)) }
        }
        let startTicking = state.withLock { state -> Bool? in
            guard !state.closed else { return nil }
            state.streams[ObjectIdentifier(stream)] = stream
            defer { state.ticking = true }
            return !state.ticking
        }
        guard let startTicking else { return nil }
        stream.push(frame())
        if startTicking { scheduleTick() }
        return stream
    }

    /// Ends every stream (shutdown).
    func close() {
        let streams = state.withLock { state in
            state.closed = true
            return Array(state.streams.values)
        }
        for stream in streams { stream.end() }
    }

    private func frame() -> [UInt8] {
        SSEEvent.event("stats", data: snapshot())
    }

    private func scheduleTick() {
        scheduler.schedule(after: 1) { [weak self] in self?.tick() }
    }

    private func tick() {
        let streams = state.withLock { state -> [AdminStatsStream] in
            if state.streams.isEmpty || state.closed { state.ticking = false }
            return state.ticking ? Array(state.streams.values) : []
        }
        guard !streams.isEmpty else { return }
        let frame = frame()
        for stream in streams { stream.push(frame) }
        scheduleTick()
    }
}
