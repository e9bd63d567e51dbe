import MicroHTTPD
import SwitchboardCore

/// `GET /api/rooms/{room}/messages`: a short poll answers at once with what
/// is newer than `since`; with `wait` it becomes a ``LongPoll``.
enum Polling {
    /// `naming` is the request's `?user=`.
    static func answer(room: String, identity: Identity, naming: String?, exchange: any HTTPExchanging,
                       services: HTTPServices) throws -> HTTPHandlerResult {
        let parameters = try PollParameters(since: exchange.query("since"), limit: exchange.query("limit"),
                                            wait: exchange.query("wait"), before: exchange.query("before"))
        if let before = parameters.before {
            return olderPage(room: room, before: before, limit: parameters.limit, exchange: exchange, services: services)
        }
        let user = try services.namedReader(identity, naming: naming)
        let wait = parameters.wait ?? 0
        if wait > 0 {
            return try LongPoll.start(room: room, parameters: parameters, wait: wait, user: user, identity: identity,
                                      exchange: exchange, services: services)
        }
        services.connections.polled(client: user.map { "user:\($0)" } ?? exchange.clientAddress ?? "unknown")
        // A poller is present for 30 s after each poll. A poll that made its
        // user join answers once the join is stored, so it sees it.
        // (Waiting at most a second: a stalled store does not hold the poll.)
        if let user, services.presence.poll(user: user, room: room, transport: .shortPoll) {
            return PendingAnswer.wait(exchange, awaiting: Void.self,
                                      until: { done in services.bus.afterQueuedCommits(atMost: 1) { done(()) } },
                                      then: { try shortPoll(room: room, parameters: parameters, identity: identity,
                                                            exchange: exchange, services: services) })
        }
        return try shortPoll(room: room, parameters: parameters, identity: identity, exchange: exchange, services: services)
    }

    /// `?before=N`: the latest `limit` messages with id < N, oldest first,
    /// and `prev`, the `before` of the next older page (absent at the start).
    private static func olderPage(room: String, before: Int64, limit: Int, exchange: any HTTPExchanging,
                                  services: HTTPServices) -> HTTPHandlerResult {
        // One more than asked: whether there is an older page.
        PendingAnswer.store(exchange, services, what: "paging back", { [bus = services.bus] in
            try bus.messages(in: room, before: before, limit: limit + 1)
        }) { found in
            var page = found
            let more = page.count > limit
            if more { page.removeFirst() }
            return .respond(.json(200, HTTPJSON.olderPage(page, prev: more ? page.first?.id : nil)))
        }
    }

    /// What is newer than `since`, or without it the latest, as a page.
    private static func shortPoll(room: String, parameters: PollParameters, identity: Identity, exchange: any HTTPExchanging,
                                  services: HTTPServices) throws -> HTTPHandlerResult {
        guard let since = parameters.since else {
            return latest(room: room, limit: parameters.limit, exchange: exchange, services: services) { .respond($0.page) }
        }
        let poll = PollSubscriber(transport: .shortPoll, room: room, since: since, access: services.access.readerAccess(identity),
                                  pages: services.pages)
        return try ShortPoll.answer(poll, limit: parameters.limit, exchange: exchange, bus: services.bus)
    }

    /// No cursor: the latest `limit` messages of the room, oldest first, as
    /// a page; whether there were none; and the last id before the read
    /// (where a long poll in an empty room starts waiting).
    /// Read on the store gate with `exchange` suspended; `then` answers on the worker.
    static func latest(room: String, limit: Int, exchange: any HTTPExchanging, services: HTTPServices,
                       then: @escaping @Sendable ((page: HTTPResponse, isEmpty: Bool, lastID: Int64)) throws -> HTTPHandlerResult)
        -> HTTPHandlerResult
    {
        let bus = services.bus
        let now = bus.lastID
        return PendingAnswer.store(exchange, services, what: "reading the latest messages", {
            try bus.latest(in: room, limit: limit, for: .shortPoll)
        }) { latest in
            try then((services.pages.page(latest, next: latest.last?.id ?? now), latest.isEmpty, now))
        }
    }
}
