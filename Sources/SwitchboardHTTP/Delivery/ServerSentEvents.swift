import MicroHTTPD
import Synchronization
import SwitchboardCore

/// `GET /api/rooms/{room}/events` and `GET /api/events?rooms=a,b`: one SSE
/// stream per client. It opens with `retry:`, replays what the client missed
/// after `Last-Event-ID` (or `?since=`), then goes live. Bytes are made from
/// the cursor only when the socket can take them: between messages the
/// connection is suspended and the subscriber parked on the bus, so an idle
/// stream costs no CPU, and a slow reader costs no memory.
final class ServerSentEvents: Subscriber, HTTPStreamBody, @unchecked Sendable {
    let transport = Transport.sse
    let parkingSpot = ParkingSpot()
    let filter: RoomFilter
    let access: RoomAccess
    // Touched only on the connection's worker thread, or while parked (and so
    // not running): unchecked, as the fields below (docs/ARCHITECTURE.md,
    // "Exclusivity checked where it can fail").
    @exclusivity(unchecked) var cursor: Int64
    /// Its catch-ups from the store, read off the thread that serves it.
    let storeFetch: StoreFetch? = StoreFetch()
    @exclusivity(unchecked) private var outbox = FrameOutbox()
    /// Whether the stream has written a batch from the bus since it was
    /// resumed: what is new then waits for its next turn (see ``next(into:park:)``).
    @exclusivity(unchecked) private var hadTurn = false
    /// What other threads ask of the stream: a keepalive, its end, notices to write.
    private struct Flags {
        var keepaliveDue = false
        var ended = false
        /// End once everything its reader may still see is written (its
        /// user left the one conversation it follows: the removal is its last event).
        var endWhenDrained = false
        var notices: [[UInt8]] = []
    }
    private let flags = Mutex(Flags())
    /// What the bus reads under its lock at every park, mirrored from
    /// ``flags`` as they change: an atomic load each, not a lock.
    private let ended = Atomic<Bool>(false)
    private let interrupted = Atomic<Bool>(false)
    private let bus: MessageBus
    private let onWake: @Sendable () -> Void

    /// - Parameter onWake: un-parks the stream (resumes its connection).
    init(bus: MessageBus, filter: RoomFilter, access: RoomAccess, resumeAfter: Int64?, retryMilliseconds: Int = 2000,
         onWake: @escaping @Sendable () -> Void) {
        self.bus = bus
        self.filter = filter
        self.access = access
        self.onWake = onWake
        cursor = resumeAfter ?? bus.lastID
        outbox.append(SSEEvent.retry(milliseconds: retryMilliseconds))
    }

    /// Opens a stream on `exchange`. A subscriber with `?user=` (`naming`) is online in
    /// its rooms while the stream is open (announced after the stream took
    /// its cursor, so it sees its own join).
    static func open(_ filter: RoomFilter, identity: Identity, naming: String?, exchange: any HTTPExchanging,
                     services: HTTPServices) throws -> HTTPResponse {
        // A browser reconnecting keeps the URL's `since` but sends the header: the header wins.
        var resumeAfter: Int64?
        if let lastEventID = exchange.header("Last-Event-ID"), !lastEventID.isEmpty {
            resumeAfter = try Cursor.parse(lastEventID, name: "Last-Event-ID")
        } else if let since = exchange.query("since") {
            resumeAfter = try Cursor.parse(since, name: "since")
        }
        let user = try services.namedReader(identity, naming: naming)
        let stream = ServerSentEvents(bus: services.bus, filter: filter, access: services.access.readerAccess(identity),
                                      resumeAfter: resumeAfter,
                                      retryMilliseconds: services.configuration.sseRetryMilliseconds,
                                      onWake: { [unowned exchange] in exchange.resumeInTurn() })
        let rooms = filter.names
        let connection = services.connections.open(.sse, user: rooms.isEmpty ? nil : user, rooms: rooms, identity: identity,
                                                   soleRoom: filter.soleRoom) { reason in
            if case .removed = reason { stream.endWhenDrained() } else { stream.end() }
        }
        let listening = services.notices.listen(filter: filter, access: stream.access, user: user) { notice in
            stream.hear(notice)
        }
        exchange.onCompletion { [connections = services.connections, notices = services.notices] _ in
            notices.remove(listening)
            connections.close(connection)
        }
        return HTTPResponse(status: 200, headers: SSEEvent.headers, body: .stream(stream, blockSize: 256))
    }

    /// Wakes every parked stream on `bus` to write a keepalive comment; a
    /// write to a vanished client fails and closes its connection.
    static func sendKeepalives(on bus: MessageBus) {
        bus.wakeAll { subscriber in
            guard let stream = subscriber as? ServerSentEvents else { return false }
            stream.requestKeepalive()
            return true
        }
    }

    /// Asks for a keepalive comment at the next write. Call only after taking
    /// the stream out of the bus (then wake it), or on its own thread.
    func requestKeepalive() {
        flags.withLock { $0.keepaliveDue = true }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, exchange: any HTTPExchanging) -> HTTPStreamRead {
        // A closure, not `exchange.suspend`: a method of an existential taken as a
        // function is a context on the heap at every read (two a delivery).
        next(into: buffer, park: { exchange.suspend() })
    }

    /// The next bytes for `buffer`: what is waiting, a keepalive, or what the
    /// pump delivers; or park (calling `park`), or end.
    ///
    /// One batch from the bus a turn: a stream that has written one and
    /// finds more waits (suspended, not parked) for its turn behind the
    /// others woken (``HTTPExchange/resumeInTurn()``), and takes what is new
    /// then, rather than writing again at once. Without it, with thousands
    /// of streams that always find more, none parks, every pass of the
    /// worker's loop writes to all of them, and the passes grow to 100 ms,
    /// with a publish's `201` waiting one or two of them.
    func next(into buffer: UnsafeMutableRawBufferPointer, park: () -> Void) -> HTTPStreamRead {
        while true {
            if !outbox.isEmpty { return .wrote(outbox.drain(into: buffer)) }
            let asked = change { flags in
                defer { (flags.keepaliveDue, flags.notices) = (false, []) }
                return flags
            }
            if asked.ended { return .end }
            if asked.endWhenDrained {
                // Out of the bus for good: whatever is left that its reader may see, then the end.
                let outcome = (try? bus.pumpWithoutParking(self)) ?? .empty
                if outcome == .delivered { continue }
                change { $0.ended = true }
                continue
            }
            if asked.keepaliveDue || !asked.notices.isEmpty {
                if asked.keepaliveDue { outbox.append(SSEEvent.keepalive) }
                for notice in asked.notices { outbox.append(notice) }
                continue
            }
            if hadTurn {
                hadTurn = false
                if bus.parkIfNothingNew(self, park: park) { return .suspended }
                park()
                wake()
                return .suspended
            }
            do {
                switch try bus.pump(self, park: park) {
                case .delivered:
                    hadTurn = true
                    continue
                case .empty, .interrupted: continue
                case .parked, .fetching: return .suspended
                case .closed, .cancelled: return .end
                }
            } catch {
                // The store did not answer its catch-up: the stream stays,
                // keeps its keepalives, and tries again when next woken.
                return bus.parkUntilWoken(self, park: park) ? .suspended : .end
            }
        }
    }

    func deliver(_ batch: MessageBatch) -> Bool {
        for message in batch { outbox.append(message, framedAs: SSEEvent.self) }
        return false
    }

    func wake() {
        onWake()
    }

    var isCancelled: Bool { ended.load(ordering: .acquiring) }

    var isInterrupted: Bool { interrupted.load(ordering: .acquiring) }

    /// Changes the flags under their lock and mirrors what the bus reads.
    @discardableResult
    private func change<Result>(_ body: (inout Flags) -> Result) -> Result {
        flags.withLock { flags in
            let result = body(&flags)
            // Stored only when changed: next() passes here on every turn of its loop.
            if ended.load(ordering: .relaxed) != flags.ended { ended.store(flags.ended, ordering: .releasing) }
            let waiting = !flags.notices.isEmpty || flags.endWhenDrained
            if interrupted.load(ordering: .relaxed) != waiting { interrupted.store(waiting, ordering: .releasing) }
            return result
        }
    }

    /// A notice for this stream's reader, from any thread: written at the
    /// next write (`event: typing`, no id), waking the stream if it is parked.
    func hear(_ notice: Notice) {
        let queued = change { flags -> Bool in
            guard !flags.ended, flags.notices.count < 64 else { return false }  // a stalled reader does not hoard them
            flags.notices.append(SSEEvent.event(notice.name, data: notice.json))
            return true
        }
        if queued, bus.unpark(self) { wake() }
    }

    /// Makes the stream end once it has written what its reader may still
    /// see (the message that removed them from its one conversation is the last).
    func endWhenDrained() {
        change { $0.endWhenDrained = true }
        if bus.unpark(self) { wake() }
    }

    /// Makes the stream end at its next write (e.g. the user was kicked).
    func end() {
        change { $0.ended = true }
        bus.cancel(self)
    }

    /// Its client is gone: it ends as a kicked stream does, and leaves its rooms.
    func clientLeft() {
        end()
    }

    /// The response was released: make sure the bus holds no reference.
    func finish() {
        change { $0.ended = true }
        _ = bus.unpark(self)
    }
}
