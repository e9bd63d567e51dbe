import MicroHTTPD
import SwitchboardCore

/// `GET /api/rooms/{room}/messages?wait=S`: answers as soon as a message
/// arrives after `since`, or empty at the deadline. While nothing is new the
/// connection is suspended and its ``PollSubscriber`` parked on the bus; a
/// publish, the deadline (on the server's one ``DeadlineScheduler``), a kick
/// or the shutdown wakes it, and ``LongPollState`` says what to do.
final class LongPoll: HTTPContinuation, @unchecked Sendable {
    private let subscriber: PollSubscriber
    private let limit: Int
    private let services: HTTPServices
    private var state: LongPollState

    private init(subscriber: PollSubscriber, limit: Int, deadline: UInt64, services: HTTPServices) {
        self.subscriber = subscriber
        self.limit = limit
        self.services = services
        self.state = LongPollState(deadline: deadline)
    }

    /// Opens the long poll: a connection (present in the room while it
    /// waits, and for 30 s after unless kicked), then the first read.
    static func start(room: String, parameters: PollParameters, wait: Int, user: String?, identity: Identity,
                      exchange: any HTTPExchanging, services: HTTPServices) throws -> HTTPHandlerResult {
        let subscriber = PollSubscriber(transport: .longPoll, room: room, since: 0, access: services.access.readerAccess(identity))
        subscriber.onWake = { [unowned exchange] in exchange.resumeInTurn() }
        if let user { services.presence.poll(user: user, room: room, transport: .longPoll) }
        // Nothing can end an anonymous poll of a public room but its client
        // and the shutdown (no user to kick or ban, no token to run out, no
        // membership to lose): it is only counted, not entered in the directory.
        let connections = services.connections
        guard user != nil || identity.claims != nil || ConversationRoom.isConversation(room) else {
            connections.openCounted(.longPoll)
            exchange.onCompletion { _ in connections.closeCounted(.longPoll) }
            return try begin(subscriber, room: room, parameters: parameters, wait: wait, exchange: exchange, services: services)
        }
        let connection = connections.open(.longPoll, user: user, rooms: user == nil ? [] : [room], identity: identity,
                                          soleRoom: room) { [bus = services.bus] reason in
            subscriber.end(reason)
            bus.cancel(subscriber)
        }
        exchange.onCompletion { [services] _ in
            if let user, !subscriber.isCancelled {
                services.presence.poll(user: user, room: room, transport: .longPoll)
            }
            services.connections.close(connection)
        }
        return try begin(subscriber, room: room, parameters: parameters, wait: wait, exchange: exchange, services: services)
    }

    /// The first read: after `since`, or the latest when there is no cursor.
    private static func begin(_ subscriber: PollSubscriber, room: String, parameters: PollParameters, wait: Int,
                              exchange: any HTTPExchanging, services: HTTPServices) throws -> HTTPHandlerResult {
        let poll = LongPoll(subscriber: subscriber, limit: parameters.limit,
                            deadline: DeadlineScheduler.now() + UInt64(wait) * 1_000_000_000, services: services)
        if let since = parameters.since {
            subscriber.start(after: since)
            return poll.step(exchange)
        }
        // No cursor: the latest at once, or (an empty room) the first message from now on.
        return Polling.latest(room: room, limit: parameters.limit, exchange: exchange, services: services) { latest in
            if !latest.isEmpty { return .respond(latest.page) }
            subscriber.start(after: latest.lastID)
            return poll.step(exchange)
        }
    }

    func resumed(_ exchange: any HTTPExchanging) -> HTTPHandlerResult {
        step(exchange)
    }

    private func step(_ exchange: any HTTPExchanging) -> HTTPHandlerResult {
        let bus = services.bus
        do {
            switch state.next(now: DeadlineScheduler.now(), kicked: subscriber.isCancelled, busClosed: bus.isClosed,
                              clientLeft: subscriber.clientLeft) {
            case .answerKicked:
                return .respond(.error(subscriber.endReason?.error ?? ConnectionEnd.kicked.error))
            case .answerNow:
                let outcome = try bus.pumpWithoutParking(subscriber, limit: limit,
                                                         whileFetching: { exchange.suspend(continuingWith: self) })
                return outcome == .fetching ? .suspended : .respond(subscriber.page)
            case .waitForNews(let scheduleDeadline):
                switch try bus.pump(subscriber, limit: limit, park: { exchange.suspend(continuingWith: self) }) {
                case .delivered, .empty, .closed, .interrupted:
                    return .respond(subscriber.page)
                case .cancelled:
                    return .respond(.error(subscriber.endReason?.error ?? ConnectionEnd.kicked.error))
                case .parked, .fetching:
                    if scheduleDeadline {
                        services.scheduler.schedule(at: state.deadline) { [weak subscriber, bus] in
                            if let subscriber, bus.unpark(subscriber) { subscriber.wake() }
                        }
                    }
                    // A client that leaves frees its connection within moments, not at the deadline.
                    exchange.watchHangup { [weak subscriber, bus] in
                        guard let subscriber else { return }
                        subscriber.markClientLeft()
                        if bus.unpark(subscriber) { subscriber.wake() }
                    }
                    return .suspended
                }
            }
        } catch {
            if let refusal = error as? SwitchboardError { return .respond(.error(refusal)) }
            services.logger.error("long-poll failed: \(error)")
            return .respond(.error(.storeUnavailable("\(error)")))
        }
    }
}
