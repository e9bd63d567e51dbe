import MicroHTTPD
import SwitchboardCore

/// The read-only views: rooms, who is present, one message, health, metrics.
enum RoomEndpoints {
    /// Rooms listed in one page of `GET /api/rooms` unless `limit` says fewer.
    static let roomsPerPage = 100
    /// The most `limit` may ask for.
    static let maxRoomsPerPage = 1_000
    /// The most rooms one page looks at: past it, a page the caller may read
    /// little of (a token limited to a few rooms) ends short, with `next`.
    static let roomsLookedAtPerPage = 5_000

    /// `GET /api/rooms?after=NAME&limit=N`: one page (by name, `limit`
    /// default 100, at most 1,000) of the rooms the caller may read
    /// (`visible`) with message count, last id and who is online; `next`,
    /// when there are more, is the `after` of the next page.
    static func rooms(_ services: HTTPServices, exchange: any HTTPExchanging,
                      visible: @escaping @Sendable (String) -> Bool) throws -> HTTPHandlerResult {
        struct Rooms: Encodable { var rooms: [RoomJSON<[String]>]; var next: String? }
        var limit = roomsPerPage
        if let given = exchange.query("limit") {
            guard let value = Int(given), (1...maxRoomsPerPage).contains(value) else {
                throw SwitchboardError.badParameter("limit", "must be a whole number from 1 to \(maxRoomsPerPage)")
            }
            limit = value
        }
        let after = exchange.query("after") ?? ""
        // The bus keeps the rooms' figures in name order: a page costs what it
        // returns (and at most `roomsLookedAtPerPage` rooms looked at), never
        // a copy of every room. Presence is read in full (it is as large as
        // the connections), so the page is still made on the gate's threads;
        // its answer is not the store's (during a frozen database it had
        // `/healthz` say 200 and the log say the stall ended).
        return PendingAnswer.store(exchange, services, what: "listing rooms", showsTheStoreAnswers: false, {
            [bus = services.bus, presence = services.presence, limit] in
            let online = presence.onlineByRoom()
            let (stored, scannedThrough) = bus.roomPage(after: after, limit: limit, budget: roomsLookedAtPerPage, visible: visible)
            var rooms = stored.map { RoomJSON($0, online: online[$0.name] ?? []) }
            // Rooms with someone in them and nothing stored yet, in the same span of names.
            for (name, users) in online where name > after && scannedThrough.map({ name <= $0 }) ?? true
                && !bus.isKnownRoom(name) && visible(name) {
                rooms.append(RoomJSON(RoomSummary(name: name, messageCount: 0, lastID: 0), online: users))
            }
            rooms.sort { $0.name < $1.name }
            let page = Array(rooms.prefix(limit))
            let next = rooms.count > limit ? page.last?.name : scannedThrough
            return MessageJSON.encode(Rooms(rooms: page, next: next))
        }) { body in .respond(.json(200, body)) }
    }

    /// `GET /api/rooms/{room}/presence`: users online, with their transports.
    static func presence(room: String, services: HTTPServices) -> HTTPResponse {
        struct User: Encodable { var user: String; var transports: [Transport] }
        struct Room: Encodable { var room: String; var users: [User] }
        let users = services.presence.online(in: room).map { User(user: $0.user, transports: $0.transports) }
        return .json(200, MessageJSON.encode(Room(room: room, users: users)))
    }

    /// `GET /api/rooms/{room}/messages/{id}`.
    static func message(room: String, id: String, exchange: any HTTPExchanging, services: HTTPServices) throws -> HTTPHandlerResult {
        let id = try Cursor.parse(id, name: "id")
        return PendingAnswer.store(exchange, services, what: "reading a message", { [bus = services.bus] in
            try bus.message(id: id, in: room)
        }) { found in
            guard let found else {
                throw SwitchboardError(.notFound, code: "no_such_message", message: "Room \(room) has no message \(id).")
            }
            return .respond(.json(200, found.json))
        }
    }

    /// `GET /healthz`: 200 while serving with a writable store; 503 while
    /// the last commit failed and none has succeeded since, while a probe
    /// finds it not writable, or once a store call has gone unanswered for
    /// `--store-timeout`. Answered within half a second whatever the store does.
    static func health(_ exchange: any HTTPExchanging, _ services: HTTPServices) -> HTTPHandlerResult {
        struct Health: Encodable {
            var status: String
            var lastID: Int64
            /// The raw TCP listener's port, when there is one (the chat page names it).
            var tcpPort: Int?
            /// `open` or `required`: whether the page may offer to join as a guest.
            var auth: String
            enum CodingKeys: String, CodingKey { case status, auth; case lastID = "last_id"; case tcpPort = "tcp_port" }
        }
        // The probe writes nothing durable (SQLite's is a temporary table), so a
        // full disk passes it: while the last commit was refused, a durable
        // write is asked for instead, and its success ends the refusal.
        let refused = services.bus.writes.isFailing
        return PendingAnswer.wait(exchange, awaiting: SwitchboardError?.self, until: { done in
            if refused {
                services.bus.checkWritesAgain(within: 0.5, completion: done)
            } else {
                services.bus.storeProbe.health(within: 0.5, completion: done)
            }
        }, answer: { failure in
            if let failure { return .error(failure) }
            return .json(200, MessageJSON.encode(Health(status: "ok", lastID: services.bus.lastID,
                                                        tcpPort: services.configuration.lineProtocolPort,
                                                        auth: services.access.mode.rawValue)))
        })
    }

    /// `GET /metrics`: Prometheus text.
    static func metrics(_ services: HTTPServices) -> HTTPResponse {
        guard let metrics = services.metrics else { return .error(.notFound) }
        let text = metrics.exposition(connections: services.connections.counts(),
                                      storeBytes: services.bus.storeFigures.current()?.bytes ?? 0,
                                      uptimeSeconds: services.uptimeSeconds, deliveries: services.bus.stats.totals())
            + PrometheusExporter.storeHealthExposition(timeouts: services.bus.gate.timedOutCount, writesFailing: services.bus.writes.isFailing,
                                                       stalled: services.bus.gate.isStalled())
            + (services.media.map { PrometheusExporter.mediaExposition($0.usageAsLastRead, writesFailing: $0.writes.isFailing) } ?? [])
            + (services.push.map { PrometheusExporter.pushExposition($0.figures) } ?? [])
            + (services.backend.map { PrometheusExporter.backendExposition($0()) } ?? [])
            + (services.configuration.connectionsPerAddress.map { PrometheusExporter.refusalExposition(refusedPerAddress: $0.refused) } ?? [])
        return HTTPResponse(status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")], body: .bytes(text))
    }
}
