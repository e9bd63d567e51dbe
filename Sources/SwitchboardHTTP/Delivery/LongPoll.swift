import MicroHTTPD
import SwitchboardCore

/// `GET /api/rooms/{room}/messages?wait=S`: answers as soon as a message
/// arrives after `since`, or empty at the deadline. While nothing is new the
/// connection is suspended and the poll parked on the bus; a publish, the
/// deadline (on the server's one ``DeadlineScheduler``), a kick, the client
/// leaving or the shutdown wakes it, and ``LongPollState`` says what to do.
///
/// One object a request: it is the bus's subscriber, the exchange's
/// continuation, the scheduler's deadline and the hang-up watch's handler
/// (each holds it strongly until the exchange completes, which lets go of
/// all of them), so waiting allocates nothing more (no closure, no weak
/// reference; 21 objects a long-poll request before, under callgrind).
final class LongPoll: PollSubscriber, HTTPContinuation, DeadlineTarget, @unchecked Sendable {
    private unowned let exchange: any HTTPExchanging
    private let limit: Int
    private let services: HTTPServices
    // `@exclusivity(unchecked)` below: touched by one thread at a time (its
    // worker, the pump, the deadline scheduler under its lock)
    // (docs/ARCHITECTURE.md, "Exclusivity checked where it can fail").
    @exclusivity(unchecked) private var state: LongPollState
    /// The state's deadline, for the scheduler's thread (which does not touch `state`).
    private let deadline: UInt64
    /// The scheduler's bookkeeping (``DeadlineTarget``).
    @exclusivity(unchecked) var deadlineSlot = -1
    /// Its entry in the connection directory (nil: only counted, see ``start``).
    @exclusivity(unchecked) private var connection: ConnectionDirectory.ID?
    private let user: String?
    private let room: String

    private init(room: String, user: String?, identity: Identity, limit: Int, wait: Int,
                 exchange: any HTTPExchanging, services: HTTPServices) {
        self.exchange = exchange
        self.limit = limit
        self.services = services
        self.user = user
        self.room = room
        let now = DeadlineScheduler.now()
        let deadline = now + UInt64(wait) * 1_000_000_000
        self.deadline = deadline
        self.state = LongPollState(arrived: now, deadline: deadline)
        super.init(transport: .longPoll, room: room, since: 0, access: services.access.readerAccess(identity),
                   pages: services.pages)
    }

    /// Opens the long poll: a connection (present in the room while it
    /// waits, and for 30 s after unless kicked), then the first read.
    static func start(room: String, parameters: PollParameters, wait: Int, user: String?, identity: Identity,
                      exchange: any HTTPExchanging, services: HTTPServices) throws -> HTTPHandlerResult {
        let poll = LongPoll(room: room, user: user, identity: identity, limit: parameters.limit, wait: wait,
                            exchange: exchange, services: services)
        if let user { services.presence.poll(user: user, room: room, transport: .longPoll) }
        // Nothing can end an anonymous poll of a public room but its client
        // and the shutdown (no user to kick or ban, no token to run out, no
        // membership to lose): it is only counted, not entered in the directory.
        if user != nil || identity.claims != nil || ConversationRoom.isConversation(room) {
            poll.connection = services.connections.open(.longPoll, user: user, rooms: user == nil ? [] : [room],
                                                        identity: identity, soleRoom: room) { [poll] reason in poll.kick(reason) }
        } else {
            services.connections.openCounted(.longPoll)
        }
        exchange.onCompletion { [poll] _ in poll.completed() }
        if let since = parameters.since {
            poll.start(after: since)
            return poll.step()
        }
        // No cursor: the latest at once, or (an empty room) the first message from now on.
        return Polling.latest(room: room, limit: parameters.limit, exchange: exchange, services: services) { latest in
            if !latest.isEmpty { return .respond(latest.page) }
            poll.start(after: latest.lastID)
            return poll.step()
        }
    }

    func resumed(_ exchange: any HTTPExchanging) -> HTTPHandlerResult {
        step()
    }

    /// Woken by the bus (a message, the store's answer), the deadline, a kick or the client leaving.
    override func wake() {
        exchange.resumeInTurn()
    }

    /// The deadline, or the time to watch the client (``LongPollState``).
    func deadlinePassed() {
        wakeUpCame(now: DeadlineScheduler.now())
    }

    /// At the deadline the poll is woken to answer. At the watch's time a
    /// parked poll is watched where it is and its wake-up moved to the
    /// deadline, with no resume and park again; one not parked (on its way
    /// to parking, or answered) is left to its worker, which does both when
    /// it parks (``LongPollState``).
    private func wakeUpCame(now: UInt64) {
        if now >= deadline {
            if services.bus.unpark(self) { wake() }
        } else {
            watchHangupWhileParked(movingWakeUpTo: deadline)
        }
    }

    /// A client that leaves frees its connection within moments of the
    /// watch, not at the deadline. Under the bus's lock, only while parked
    /// (nothing resumes the poll meanwhile, so the worker and the
    /// scheduler's thread never race for the exchange's one watch, and a
    /// wake-up moved here is never that of a poll already answered): a
    /// table insert and one `epoll_ctl`, once for a poll that waits a second.
    private func watchHangupWhileParked(movingWakeUpTo wakeAt: UInt64?) {
        _ = services.bus.whileParked(self) {
            exchange.watchHangup { [self] in
                markClientLeft()
                if services.bus.unpark(self) { wake() }
            }
            if let wakeAt { services.scheduler.schedule(at: wakeAt, self) }
        }
    }

    /// Ended from any thread (a kick, a ban, the token expired or revoked).
    private func kick(_ reason: ConnectionEnd) {
        end(reason)
        services.bus.cancel(self)
    }

    /// The exchange ended (answered, or the connection closed): nothing holds the poll after this.
    private func completed() {
        services.scheduler.cancel(self)
        if let connection {
            if let user, !isCancelled {
                services.presence.poll(user: user, room: room, transport: .longPoll)
            }
            services.connections.close(connection)
        } else {
            services.connections.closeCounted(.longPoll)
        }
    }

    private func step() -> HTTPHandlerResult {
        let bus = services.bus
        do {
            switch state.next(now: DeadlineScheduler.now(), kicked: isCancelled, busClosed: bus.isClosed, clientLeft: clientLeft) {
            case .answerKicked:
                return .respond(.error(endReason?.error ?? ConnectionEnd.kicked.error))
            case .answerNow:
                let outcome = try bus.pumpWithoutParking(self, limit: limit,
                                                         whileFetching: { exchange.suspend(continuingWith: self) })
                return outcome == .fetching ? .suspended : .respond(page)
            case .waitForNews(let wakeAt, let watchHangup):
                switch try bus.pump(self, limit: limit, park: { exchange.suspend(continuingWith: self) }) {
                case .delivered, .empty, .closed, .interrupted:
                    return .respond(page)
                case .cancelled:
                    return .respond(.error(endReason?.error ?? ConnectionEnd.kicked.error))
                case .parked, .fetching:
                    if let wakeAt { services.scheduler.schedule(at: wakeAt, self) }
                    if watchHangup { watchHangupWhileParked(movingWakeUpTo: nil) }
                    // A wake-up spent while this poll was on its way here (``LongPollState/wakeIsDue(now:)``).
                    let now = DeadlineScheduler.now()
                    if state.wakeIsDue(now: now) { wakeUpCame(now: now) }
                    return .suspended
                }
            }
        } catch {
            if let refusal = error as? SwitchboardError { return .respond(.error(refusal)) }
            services.logger.error("long-poll failed: \(error)")
            return .respond(.error(.storeUnavailable(because: error)))
        }
    }
}
