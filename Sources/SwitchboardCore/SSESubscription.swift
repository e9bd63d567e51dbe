import Synchronization

/// One Server-Sent Events subscriber, as a state machine the transport drives:
/// each time the socket can take bytes, ``next(into:park:)`` says what to do —
/// write these bytes, stay parked until woken, or end the stream.
///
/// It starts with a `retry:` line, then replays what it missed after its
/// cursor, then goes live; its cursor only moves forward, so nothing is sent
/// twice and nothing is skipped.
public final class SSESubscription: MessageWaiter, @unchecked Sendable {
    /// What the transport should do.
    public enum Action: Equatable, Sendable {
        /// `n` bytes were written into the buffer.
        case wrote(Int)
        /// Nothing to send; the subscriber is parked on the bus and `park`
        /// was called. ``wake()`` will follow.
        case parked
        /// The stream is over (the bus closed, or the subscriber was ended).
        case end
    }

    /// The rooms this subscriber follows.
    public let filter: RoomFilter
    private let bus: MessageBus
    private let batchSize: Int
    private let onWake: @Sendable () -> Void
    // Touched only by the transport's thread for this stream, or while the
    // stream is parked (and so not running).
    private var outbox = SSEOutbox()
    private var cursor: Int64
    private let flags = Mutex<(keepaliveDue: Bool, ended: Bool)>((false, false))

    /// - Parameters:
    ///   - bus: the bus to read.
    ///   - filter: rooms to follow.
    ///   - resumeAfter: replay messages after this id; nil for live only.
    ///   - retryMilliseconds: the `retry:` the stream opens with.
    ///   - batchSize: most messages fetched per read.
    ///   - onWake: un-parks the transport (e.g. resume the connection).
    public init(bus: MessageBus, filter: RoomFilter, resumeAfter: Int64?, retryMilliseconds: Int = 2000,
                batchSize: Int = 64, onWake: @escaping @Sendable () -> Void) {
        self.bus = bus
        self.filter = filter
        self.batchSize = batchSize
        self.onWake = onWake
        self.cursor = resumeAfter ?? bus.lastID
        outbox.append(SSEFormat.retry(milliseconds: retryMilliseconds))
    }

    /// The id of the last message this subscriber has been given (or scanned past).
    public var position: Int64 { cursor }

    /// Produces the next bytes for `buffer`, or parks, or ends.
    public func next(into buffer: UnsafeMutableRawBufferPointer, park: () -> Void) -> Action {
        while true {
            if !outbox.isEmpty {
                return .wrote(outbox.drain(into: buffer))
            }
            let (keepaliveDue, ended) = flags.withLock { flags in
                defer { flags.keepaliveDue = false }
                return flags
            }
            if ended { return .end }
            if keepaliveDue {
                outbox.append(SSEFormat.keepalive)
                continue
            }
            let read: BusRead
            do {
                read = try bus.readOrPark(after: cursor, in: filter, limit: batchSize, waiter: self, park: park)
            } catch {
                return .end
            }
            switch read {
            case .messages(let messages, let scannedThrough):
                for message in messages { outbox.append(message.sseFrame) }
                bus.stats.delivered(messages, transport: .sse)
                cursor = max(cursor, scannedThrough)
                if outbox.isEmpty { continue }
            case .parked:
                return .parked
            case .closed, .cancelled:
                return .end
            }
        }
    }

    /// Asks for a keepalive comment at the next write. Call only after taking
    /// this subscriber out of the bus (then ``wake()`` it), or on its own thread.
    public func requestKeepalive() {
        flags.withLock { $0.keepaliveDue = true }
    }

    /// Makes the stream end at its next write (e.g. the user was kicked).
    public func end() {
        flags.withLock { $0.ended = true }
        bus.cancel(self)
    }

    /// The transport is gone: make sure the bus holds no reference.
    public func detach() {
        flags.withLock { $0.ended = true }
        _ = bus.unpark(self)
    }

    public func wake() {
        onWake()
    }

    public var isCancelled: Bool { flags.withLock { $0.ended } }
}
