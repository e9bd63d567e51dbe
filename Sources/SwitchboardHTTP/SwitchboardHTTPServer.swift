import Logging
import MicroHTTPD
import Synchronization
import SwitchboardCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The HTTP side of Switchboard: publish, short-poll, long-poll and SSE over
/// one ``MessageBus``, served by libmicrohttpd.
///
/// Start it with ``init(configuration:bus:store:scheduler:logger:)``; stop it
/// with ``shutdown()``, which stops accepting, answers every waiting long-poll,
/// ends every stream and then stops the daemon.
public final class SwitchboardHTTPServer: HTTPRequestHandler, @unchecked Sendable {
    private let configuration: HTTPServerConfiguration
    private let bus: MessageBus
    private let store: any MessageStore
    private let presence: Presence
    private let gauges: ConnectionGauges
    private let sessions: SessionDirectory
    private let metrics: PrometheusExporter?
    private let started = DeadlineScheduler.now()
    private let scheduler: DeadlineScheduler
    private let logger: Logger
    private var daemon: HTTPDaemon?
    private var adminFeed: AdminStatsFeed!
    /// Requests being handled, waiting or streaming right now.
    private let activeExchanges = Atomic<Int>(0)

    /// The port HTTP is served on.
    public private(set) var port: UInt16 = 0

    /// Binds and starts serving.
    /// - Parameters:
    ///   - scheduler: the server's one deadline thread (long-poll deadlines,
    ///     keepalive ticks); must be started.
    public init(configuration: HTTPServerConfiguration, bus: MessageBus, store: any MessageStore,
                presence: Presence, gauges: ConnectionGauges, sessions: SessionDirectory,
                metrics: PrometheusExporter? = nil,
                scheduler: DeadlineScheduler, logger: Logger) throws {
        self.configuration = configuration
        self.bus = bus
        self.store = store
        self.presence = presence
        self.gauges = gauges
        self.sessions = sessions
        self.metrics = metrics
        self.scheduler = scheduler
        self.logger = logger
        adminFeed = AdminStatsFeed(scheduler: scheduler) { [weak self] in
            (try? self?.adminStatsJSON()) ?? Array("{}".utf8)
        }
        var daemonConfiguration = configuration.daemon
        let daemonLogger = logger
        daemonConfiguration.log = { message in
            // Clients vanishing mid-write is routine for streams; keep it out of the way.
            let routine = message.contains("Failed to send") || message.contains("no longer available")
                || message.contains("closed by remote")
            daemonLogger.log(level: routine ? .debug : .warning, "libmicrohttpd: \(message)")
        }
        let daemon = try HTTPDaemon(configuration: daemonConfiguration, handler: self)
        self.daemon = daemon
        self.port = daemon.port
        scheduler.repeating(every: configuration.keepaliveSeconds) { [weak self] in
            self?.sendKeepalives()
        }
    }

    /// Open SSE streams.
    public var streamCount: Int { gauges.snapshot()[.sse] ?? 0 }

    /// Stops accepting, lets waiting long-polls answer and streams end (within
    /// the configured grace period), then stops the daemon. The bus must be
    /// closed by the caller first or it is closed here.
    public func shutdown() {
        guard let daemon else { return }
        daemon.quiesce()
        bus.close()
        adminFeed.close()
        let deadline = DeadlineScheduler.now() + UInt64(configuration.shutdownGraceSeconds * 1e9)
        while activeExchanges.load(ordering: .acquiring) > 0, DeadlineScheduler.now() < deadline {
            usleep(10_000)
        }
        let left = activeExchanges.load(ordering: .acquiring)
        if left > 0 {
            logger.warning("stopping with \(left) request(s) still open")
        }
        daemon.stop()
        self.daemon = nil
    }

    // MARK: - Routing

    public func handle(_ exchange: HTTPExchange) -> HTTPHandlerResult {
        if let longPoll = exchange.context as? LongPoll {
            return continueLongPoll(longPoll, exchange: exchange)
        }
        track(exchange)
        if exchange.bodyTooLarge {
            return .respond(.error(.bodyTooLarge(limit: configuration.daemon.maxBodyBytes)))
        }
        if exchange.path.hasPrefix("/api/admin/") || exchange.path == "/api/admin",
           !AdminToken.matches(exchange.header("Authorization"), token: configuration.adminToken) {
            return .respond(.json(401, MessageJSON.error(SwitchboardError(
                status: 401, code: "unauthorized", message: "The admin API needs 'Authorization: Bearer TOKEN'.")),
                headers: [("WWW-Authenticate", "Bearer")]))
        }
        let route: APIRoute
        switch APIRoute.match(method: exchange.method, path: exchange.path) {
        case .route(let matched):
            route = matched
        case .notFound:
            if exchange.method == "GET" || exchange.method == "HEAD",
               let file = configuration.publicFiles?.file(for: exchange.path) {
                return .respond(HTTPResponse(status: 200, headers: [("Content-Type", file.contentType), ("Cache-Control", "no-cache")],
                                             body: .bytes(file.bytes)))
            }
            return .respond(.error(.notFound))
        case .methodNotAllowed(let allowed):
            return .respond(.json(405, MessageJSON.error(.methodNotAllowed(allowed: allowed)),
                                  headers: [("Allow", allowed.joined(separator: ", "))]))
        }
        do {
            switch route {
            case .publish(let room): return .respond(try publish(room: room, exchange: exchange))
            case .poll(let room): return try poll(room: room, exchange: exchange)
            case .message(let room, let id): return .respond(try message(room: room, id: id))
            case .roomEvents(let room):
                return .respond(try events(filter: .room(configuration.limits.validRoom(room)), exchange: exchange))
            case .events: return .respond(try events(filter: try roomsFilter(exchange.query("rooms")), exchange: exchange))
            case .rooms: return .respond(try rooms())
            case .presence(let room): return .respond(try presenceList(room: configuration.limits.validRoom(room)))
            case .health: return .respond(health())
            case .metrics: return .respond(metricsText())
            case .adminStats: return .respond(.json(200, try adminStatsJSON()))
            case .adminConnections: return .respond(adminConnections())
            case .adminStatsEvents:
                guard let stream = adminFeed.open(exchange) else { throw SwitchboardError.shuttingDown }
                return .respond(HTTPResponse(
                    status: 200,
                    headers: [("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-cache"),
                              ("X-Accel-Buffering", "no")],
                    body: .stream(stream, blockSize: 16 * 1024)))
            case .adminSystemMessage(let room): return .respond(try systemMessage(room: room, exchange: exchange))
            case .adminKick(let user): return .respond(kick(user: user))
            case .adminDelete(let id): return .respond(try deleteMessage(id: id))
            }
        } catch let error as SwitchboardError {
            return .respond(.error(error))
        } catch {
            logger.error("request failed: \(exchange.method) \(exchange.path): \(error)")
            return .respond(.error(.storeFailure("\(error)")))
        }
    }

    /// Counts the exchange as active until it completes.
    private func track(_ exchange: HTTPExchange) {
        activeExchanges.add(1, ordering: .relaxed)
        exchange.onCompletion { [weak self] _ in
            self?.activeExchanges.subtract(1, ordering: .releasing)
        }
    }

    // MARK: - Publish

    private func publish(room: String, exchange: HTTPExchange) throws -> HTTPResponse {
        let draft = try PublishRequest.draft(room: room, contentType: exchange.header("Content-Type"),
                                             body: exchange.body, limits: configuration.limits)
        let encoded = try bus.publish(draft)
        return .json(201, encoded.json, headers: [("Location", "/api/rooms/\(draft.room)/messages/\(encoded.id)")])
    }

    // MARK: - Short and long poll

    private func poll(room: String, exchange: HTTPExchange) throws -> HTTPHandlerResult {
        let room = try configuration.limits.validRoom(room)
        let parameters = try PollParameters(since: exchange.query("since"), limit: exchange.query("limit"),
                                            wait: exchange.query("wait"))
        let user = try presentUser(exchange)
        if (parameters.wait ?? 0) > 0 {
            gauges.opened(.longPoll)
            exchange.onCompletion { [gauges] _ in
                gauges.closed(.longPoll)
            }
        } else {
            gauges.polled(client: user.map { "user:\($0)" } ?? exchange.clientAddress ?? "unknown")
        }
        if let user {
            // A poller is present for 30 s after each poll; a waiting long-poll
            // counts as a connection for as long as it waits.
            let longPoll = (parameters.wait ?? 0) > 0
            presence.poll(user: user, room: room, transport: longPoll ? .longPoll : .shortPoll)
            if longPoll {
                presence.connect(user: user, room: room, transport: .longPoll)
                exchange.onCompletion { [presence, unowned exchange] _ in
                    // Present for 30 s after the answer, unless the answer was a kick.
                    if (exchange.context as? LongPoll)?.kicked.load(ordering: .acquiring) != true {
                        presence.poll(user: user, room: room, transport: .longPoll)
                    }
                    presence.disconnect(user: user, room: room, transport: .longPoll)
                }
            }
        }
        let since: Int64
        if let given = parameters.since {
            since = given
        } else {
            // No cursor: the latest `limit` at once; with `wait` and an empty
            // room, wait for the first message from now on.
            let now = bus.lastID
            let latest = try store.latest(in: room, limit: parameters.limit)
            if !latest.isEmpty || (parameters.wait ?? 0) == 0 {
                return .respond(page(latest.map(EncodedMessage.init), next: latest.last?.id ?? now, transport: .shortPoll))
            }
            since = now
        }
        let wait = parameters.wait ?? 0
        if wait == 0 || bus.isClosed {
            let read = try bus.read(after: since, in: .room(room), limit: parameters.limit)
            return .respond(page(read.messages, next: read.messages.last?.id ?? since, transport: .shortPoll))
        }
        let longPoll = LongPoll(exchange: exchange, room: room, since: since, limit: parameters.limit,
                                deadline: DeadlineScheduler.now() + UInt64(wait) * 1_000_000_000)
        exchange.context = longPoll
        if let user {
            let session = sessions.register(user: user) { [bus] in
                longPoll.kicked.store(true, ordering: .releasing)
                bus.cancel(longPoll)
            }
            exchange.onCompletion { [sessions] _ in
                sessions.unregister(session)
            }
        }
        return try waitOrAnswer(longPoll, exchange: exchange, scheduleDeadline: true)
    }

    private func continueLongPoll(_ longPoll: LongPoll, exchange: HTTPExchange) -> HTTPHandlerResult {
        if longPoll.kicked.load(ordering: .acquiring) {
            return .respond(.error(Self.kicked))
        }
        do {
            if DeadlineScheduler.now() >= longPoll.deadline || bus.isClosed {
                let read = try bus.read(after: longPoll.since, in: .room(longPoll.room), limit: longPoll.limit)
                return .respond(page(read.messages, next: read.messages.last?.id ?? longPoll.since, transport: .longPoll))
            }
            return try waitOrAnswer(longPoll, exchange: exchange, scheduleDeadline: false)
        } catch {
            logger.error("long-poll failed: \(error)")
            return .respond(.error(.storeFailure("\(error)")))
        }
    }

    private func waitOrAnswer(_ longPoll: LongPoll, exchange: HTTPExchange, scheduleDeadline: Bool) throws -> HTTPHandlerResult {
        switch try bus.readOrPark(after: longPoll.since, in: .room(longPoll.room), limit: longPoll.limit,
                                  waiter: longPoll, park: exchange.suspend) {
        case .messages(let messages, _):
            return .respond(page(messages, next: messages.last?.id ?? longPoll.since, transport: .longPoll))
        case .closed:
            return .respond(page([], next: longPoll.since, transport: .longPoll))
        case .cancelled:
            return .respond(.error(Self.kicked))
        case .parked:
            if scheduleDeadline {
                scheduler.schedule(at: longPoll.deadline) { [weak longPoll, bus] in
                    if let longPoll, bus.unpark(longPoll) { longPoll.wake() }
                }
            }
            return .suspended
        }
    }

    private func page(_ messages: [EncodedMessage], next: Int64, transport: Transport) -> HTTPResponse {
        bus.stats.delivered(messages, transport: transport)
        return .json(200, MessageJSON.page(messages, next: next))
    }

    private func message(room: String, id: String) throws -> HTTPResponse {
        let room = try configuration.limits.validRoom(room)
        let id = try PollParameters.cursor(id, name: "id")
        guard id > 0, let found = try store.messages(after: id - 1, in: .room(room), limit: 1).messages.first,
              found.id == id
        else {
            throw SwitchboardError(status: 404, code: "no_such_message", message: "Room \(room) has no message \(id).")
        }
        return .json(200, EncodedMessage(found).json)
    }

    // MARK: - SSE

    private func roomsFilter(_ value: String?) throws -> RoomFilter {
        guard let value, !value.isEmpty else { return .all }
        var rooms = Set<String>()
        for name in value.split(separator: ",", omittingEmptySubsequences: true) {
            rooms.insert(try configuration.limits.validRoom(String(name)))
        }
        return rooms.isEmpty ? .all : .rooms(rooms)
    }

    private func events(filter: RoomFilter, exchange: HTTPExchange) throws -> HTTPResponse {
        // A browser reconnecting keeps the URL's `since` but sends the header: the header wins.
        var resumeAfter: Int64?
        if let lastEventID = exchange.header("Last-Event-ID"), !lastEventID.isEmpty {
            resumeAfter = try PollParameters.cursor(lastEventID, name: "Last-Event-ID")
        } else if let since = exchange.query("since") {
            resumeAfter = try PollParameters.cursor(since, name: "since")
        }
        let user = try presentUser(exchange)
        guard !bus.isClosed else { throw SwitchboardError.shuttingDown }
        let subscription = SSESubscription(
            bus: bus, filter: filter, resumeAfter: resumeAfter,
            retryMilliseconds: configuration.sseRetryMilliseconds,
            onWake: { [unowned exchange] in exchange.resume() })
        // An SSE subscriber with ?user= is online in its rooms while the stream is open
        // (announced after the subscription took its cursor, so it sees its own join).
        if let user, case .rooms(let rooms) = filter {
            let presentIn = rooms.sorted()
            for room in presentIn { presence.connect(user: user, room: room, transport: .sse) }
            let session = sessions.register(user: user) { [subscription] in subscription.end() }
            exchange.onCompletion { [presence, sessions] _ in
                sessions.unregister(session)
                for room in presentIn { presence.disconnect(user: user, room: room, transport: .sse) }
            }
        }
        gauges.opened(.sse)
        exchange.onCompletion { [gauges] _ in
            gauges.closed(.sse)
        }
        return HTTPResponse(
            status: 200,
            headers: [("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-cache"),
                      ("X-Accel-Buffering", "no")],
            body: .stream(SSEStreamBody(subscription: subscription), blockSize: 16 * 1024))
    }

    /// Wakes every parked SSE stream to write a keepalive comment; a write to
    /// a vanished client fails and closes its connection.
    private func sendKeepalives() {
        bus.wakeAll { waiter in
            guard let subscription = waiter as? SSESubscription else { return false }
            subscription.requestKeepalive()
            return true
        }
    }

    /// The `?user=` of a request, validated; nil when absent.
    private func presentUser(_ exchange: HTTPExchange) throws -> String? {
        guard let user = exchange.query("user") else { return nil }
        return try configuration.limits.validUser(user)
    }

    // MARK: - Rooms, presence and health

    private func rooms() throws -> HTTPResponse {
        struct Room: Encodable {
            var name: String
            var messageCount: Int
            var lastID: Int64
            var online: [String]
            enum CodingKeys: String, CodingKey {
                case name, online
                case messageCount = "message_count"
                case lastID = "last_id"
            }
        }
        struct Rooms: Encodable { var rooms: [Room] }
        let online = presence.onlineByRoom()
        var rooms = try store.rooms().map {
            Room(name: $0.name, messageCount: $0.messageCount, lastID: $0.lastID, online: online[$0.name] ?? [])
        }
        let listed = Set(rooms.map(\.name))
        for (name, users) in online where !listed.contains(name) {
            rooms.append(Room(name: name, messageCount: 0, lastID: 0, online: users))
        }
        return .json(200, MessageJSON.encode(Rooms(rooms: rooms.sorted { $0.name < $1.name })))
    }

    private var uptimeSeconds: Double { Double(DeadlineScheduler.now() - started) / 1e9 }

    private func metricsText() -> HTTPResponse {
        guard let metrics else { return .error(.notFound) }
        let text = metrics.exposition(connections: gauges.snapshot(), storeBytes: store.sizeInBytes(), uptimeSeconds: uptimeSeconds)
        return HTTPResponse(status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")], body: .bytes(text))
    }

    private func adminStatsJSON() throws -> [UInt8] {
        struct Room: Encodable {
            var name: String
            var messageCount: Int
            var lastID: Int64
            var online: Int
            enum CodingKeys: String, CodingKey { case name, online; case messageCount = "message_count"; case lastID = "last_id" }
        }
        struct User: Encodable { var user: String; var room: String; var transports: [Transport] }
        struct Stats: Encodable {
            var uptimeSeconds: Double
            var storeBytes: Int64
            var published: Int
            var lastID: Int64
            var connections: [String: Int]
            var transports: [String: DeliveryStats.TransportFigures]
            var rooms: [Room]
            var users: [User]
            enum CodingKeys: String, CodingKey {
                case published, connections, transports, rooms, users
                case uptimeSeconds = "uptime_s"
                case storeBytes = "store_bytes"
                case lastID = "last_id"
            }
        }
        let online = presence.onlineByRoom()
        let users = online.keys.sorted().flatMap { room in
            presence.online(in: room).map { User(user: $0.user, room: room, transports: $0.transports) }
        }
        let stats = Stats(
            uptimeSeconds: uptimeSeconds, storeBytes: store.sizeInBytes(), published: bus.stats.publishedCount,
            lastID: bus.lastID,
            connections: Dictionary(uniqueKeysWithValues: gauges.snapshot().map { ($0.key.rawValue, $0.value) }),
            transports: Dictionary(uniqueKeysWithValues: bus.stats.figures().map { ($0.key.rawValue, $0.value) }),
            rooms: try store.rooms().map { Room(name: $0.name, messageCount: $0.messageCount, lastID: $0.lastID, online: online[$0.name]?.count ?? 0) },
            users: users)
        return MessageJSON.encode(stats)
    }

    /// Clients per transport, and every named user's transports by room.
    private func adminConnections() -> HTTPResponse {
        struct Entry: Encodable { var user: String; var room: String; var transports: [Transport] }
        struct Connections: Encodable { var connections: [String: Int]; var users: [Entry] }
        let users = presence.onlineByRoom().keys.sorted().flatMap { room in
            presence.online(in: room).map { Entry(user: $0.user, room: room, transports: $0.transports) }
        }
        let counts = Dictionary(uniqueKeysWithValues: gauges.snapshot().map { ($0.key.rawValue, $0.value) })
        return .json(200, MessageJSON.encode(Connections(connections: counts, users: users)))
    }

    static let kicked = SwitchboardError(status: 403, code: "kicked", message: "An administrator closed this user's connections.")

    /// Closes every connection of `user` on every transport and ends their poll leases.
    private func kick(user: String) -> HTTPResponse {
        struct Kicked: Encodable { var user: String; var closed: Int }
        let closed = sessions.kick(user: user)
        presence.dropLeases(of: user)
        return .json(200, MessageJSON.encode(Kicked(user: user, closed: closed)))
    }

    private func deleteMessage(id: String) throws -> HTTPResponse {
        let id = try PollParameters.cursor(id, name: "id")
        guard let tombstone = try bus.delete(id: id) else {
            throw SwitchboardError(status: 404, code: "no_such_message", message: "There is no message \(id).")
        }
        return .json(200, tombstone.json)
    }

    /// A message from the server, as user `system`, to every transport in the room.
    private func systemMessage(room: String, exchange: HTTPExchange) throws -> HTTPResponse {
        let room = try configuration.limits.validRoom(room)
        let request = try PublishRequest.draft(room: room, contentType: exchange.header("Content-Type"),
                                               body: exchange.body, limits: configuration.limits, requireUser: false)
        let draft = MessageDraft(room: room, user: MessageLimits.systemUser, text: request.text, kind: .system)
        let encoded = try bus.publish(draft)
        return .json(201, encoded.json, headers: [("Location", "/api/rooms/\(room)/messages/\(encoded.id)")])
    }

    private func presenceList(room: String) throws -> HTTPResponse {
        struct User: Encodable { var user: String; var transports: [Transport] }
        struct Room: Encodable { var room: String; var users: [User] }
        let users = presence.online(in: room).map { User(user: $0.user, transports: $0.transports) }
        return .json(200, MessageJSON.encode(Room(room: room, users: users)))
    }

    private func health() -> HTTPResponse {
        struct Health: Encodable {
            var status: String
            var lastID: Int64
            enum CodingKeys: String, CodingKey { case status; case lastID = "last_id" }
        }
        do {
            try store.checkWritable()
            return .json(200, MessageJSON.encode(Health(status: "ok", lastID: bus.lastID)))
        } catch {
            return .error(SwitchboardError(status: 503, code: "store_unavailable", message: "The store is not writable: \(error)."))
        }
    }
}
