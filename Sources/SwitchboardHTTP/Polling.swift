import MicroHTTPD
import SwitchboardCore

/// `GET /api/rooms/{room}/messages`: a short poll answers at once with what
/// is newer than `since`; with `wait` it becomes a ``LongPoll``.
enum Polling {
    static func answer(room: String, identity: Identity, exchange: HTTPExchange, services: HTTPServices) throws -> HTTPHandlerResult {
        let parameters = try PollParameters(since: exchange.query("since"), limit: exchange.query("limit"),
                                            wait: exchange.query("wait"), before: exchange.query("before"))
        if let before = parameters.before {
            return .respond(try olderPage(room: room, before: before, limit: parameters.limit, services: services))
        }
        let user = try services.access.speaker(identity, naming: exchange.query("user"), limits: services.limits)
        let wait = parameters.wait ?? 0
        if wait > 0 {
            return try LongPoll.start(room: room, parameters: parameters, wait: wait, user: user, identity: identity,
                                      exchange: exchange, services: services)
        }
        services.connections.polled(client: user.map { "user:\($0)" } ?? exchange.clientAddress ?? "unknown")
        // A poller is present for 30 s after each poll. A poll that made its
        // user join answers once the join is stored, so it sees it.
        if let user, services.presence.poll(user: user, room: room, transport: .shortPoll) {
            return PendingAnswer<Void>.suspend(exchange, until: { done in services.bus.afterQueuedCommits { done(()) } },
                                               answer: { try shortPoll(room: room, parameters: parameters, identity: identity,
                                                                       services: services) })
        }
        return .respond(try shortPoll(room: room, parameters: parameters, identity: identity, services: services))
    }

    /// `?before=N`: the latest `limit` messages with id < N, oldest first,
    /// and `prev`, the `before` of the next older page (absent at the start).
    private static func olderPage(room: String, before: Int64, limit: Int, services: HTTPServices) throws -> HTTPResponse {
        // One more than asked: whether there is an older page.
        var page = try services.bus.messages(in: room, before: before, limit: limit + 1)
        let more = page.count > limit
        if more { page.removeFirst() }
        return .json(200, HTTPJSON.olderPage(page, prev: more ? page.first?.id : nil))
    }

    /// What is newer than `since`, or without it the latest, as a page.
    private static func shortPoll(room: String, parameters: PollParameters, identity: Identity,
                                  services: HTTPServices) throws -> HTTPResponse {
        guard let since = parameters.since else {
            return try latest(room: room, limit: parameters.limit, services: services).page
        }
        let poll = PollSubscriber(transport: .shortPoll, room: room, since: since, access: services.access.readerAccess(identity))
        _ = try services.bus.pumpWithoutParking(poll, limit: parameters.limit)
        return poll.page
    }

    /// No cursor: the latest `limit` messages of the room, oldest first, as
    /// a page; whether there were none; and the last id before the read
    /// (where a long poll in an empty room starts waiting).
    static func latest(room: String, limit: Int, services: HTTPServices) throws
        -> (page: HTTPResponse, isEmpty: Bool, lastID: Int64)
    {
        let now = services.bus.lastID
        let latest = try services.bus.latest(in: room, limit: limit, for: .shortPoll)
        return (.json(200, HTTPJSON.page(latest, next: latest.last?.id ?? now)), latest.isEmpty, now)
    }
}
