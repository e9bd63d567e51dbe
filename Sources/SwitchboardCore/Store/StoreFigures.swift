import Synchronization

/// The store's figure the admin page and `/metrics` show (its size), as
/// last read: reading it never waits for the store. A read older than
/// ``maxAgeSeconds`` starts a new one on the gate, one at a time; while
/// the store does not answer, the last figures stay. The rooms' counts are
/// the bus's (``MessageBus/roomPage(after:limit:budget:visible:)``): read here, they were a scan of the
/// log that `/metrics`, open to anyone, started once a second.
public final class StoreFigures: Sendable {
    /// What was read, and when.
    public struct Figures: Sendable {
        /// The database's size on disk, in bytes.
        public var bytes: Int64
        /// Monotonic nanoseconds of the read.
        public var readAt: UInt64
    }

    /// How old figures may be before a read is started.
    public let maxAgeSeconds: Double
    private let gate: StoreGate
    private let read: @Sendable () throws -> Figures
    private let state: Mutex<(last: Figures?, reading: Bool)>

    /// - Parameters:
    ///   - initial: figures read at start, if any.
    ///   - read: reads them (on the gate's threads).
    public init(gate: StoreGate, initial: Figures? = nil, maxAgeSeconds: Double = 1,
                read: @escaping @Sendable () throws -> Figures) {
        state = Mutex((initial, false))
        self.gate = gate
        self.maxAgeSeconds = maxAgeSeconds
        self.read = read
    }

    /// Reads the figures on this thread (run it on the gate) and keeps them as the last read.
    public func readNow() throws -> Figures {
        let figures = try read()
        state.withLock { $0.last = figures }
        return figures
    }

    /// The last figures read (nil before the first read ends); starts a
    /// new read when they are older than ``maxAgeSeconds``.
    public func current(now: UInt64 = DeadlineScheduler.now()) -> Figures? {
        let (last, start) = state.withLock { state -> (Figures?, Bool) in
            let stale = state.last.map { now > $0.readAt && Double(now - $0.readAt) / 1e9 > maxAgeSeconds } ?? true
            let start = stale && !state.reading
            if start { state.reading = true }
            return (state.last, start)
        }
        if start {
            gate.run("reading the store's figures", read) { [self] result in
                state.withLock { state in
                    state.reading = false
                    if case .success(let figures) = result { state.last = figures }
                }
            }
        }
        return last
    }
}
