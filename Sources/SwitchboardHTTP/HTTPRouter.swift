import Dispatch
import MicroHTTPD
import SwitchboardCore

/// Routes every request: refuses oversized bodies, answers CORS preflights,
/// checks the admin token, asks ``AccessControl`` who the caller is, matches
/// ``APIRoute`` and hands the request to its endpoint; anything else is a
/// static file or a 404. Counts open exchanges so that shutdown can wait
/// for them.
final class HTTPRouter: HTTPRequestHandler {
    private let services: HTTPServices
    private let admin: AdminEndpoints
    /// Entered when a request is routed, left when its exchange completes.
    let openExchanges = DispatchGroup()

    init(services: HTTPServices, admin: AdminEndpoints) {
        self.services = services
        self.admin = admin
    }

    func handle(_ exchange: HTTPExchange) -> HTTPHandlerResult {
        openExchanges.enter()
        exchange.onCompletion { [openExchanges] _ in openExchanges.leave() }
        let request = exchange.request
        if let origin = services.origins.corsOrigin(request) {
            exchange.responseHeaders = OriginPolicy.corsHeaders(origin)
        }
        do {
            switch decide(request) {
            case .respond(let response): return .respond(response)
            case .needsExchange(let route, let identity): return try carryOut(route, identity: identity, exchange: exchange)
            }
        } catch let error as SwitchboardError {
            return .respond(.error(error))
        } catch {
            services.logger.error("request failed: \(exchange.method) \(exchange.path): \(error)")
            return .respond(.error(.storeUnavailable("\(error)")))
        }
    }

    /// What routing decided: an answer now, or a route that needs the
    /// exchange itself (it suspends, streams, or waits for the store), with
    /// who asked.
    enum Decision {
        case respond(HTTPResponse)
        case needsExchange(APIRoute, Identity)
    }

    /// Routes `request` with no I/O beyond reading state: refusals, reads,
    /// static files, the upgrade hook and admin reads are answered here.
    func decide(_ request: HTTPRequest) -> Decision {
        let credentials = HTTPCredentials(request, adminToken: services.configuration.adminToken)
        do {
            return try decide(request, credentials)
        } catch {
            let error = error as? SwitchboardError ?? .storeUnavailable("\(error)")
            var response = HTTPResponse.error(error)
            // A stale session cookie would refuse every request the page makes: clear it.
            if error.kind == .unauthenticated, credentials.source == .cookie {
                response.headers.append(HTTPCredentials.clearedCookie(secure: services.configuration.secureCookies))
            }
            return .respond(response)
        }
    }

    private func decide(_ request: HTTPRequest, _ credentials: HTTPCredentials) throws -> Decision {
        if request.tooManyParameters { return .respond(.error(.tooManyParameters, status: 414, headers: [])) }
        if request.bodyTooLarge {
            return .respond(.error(.bodyTooLarge(limit: services.configuration.maxBodyBytes)))
        }
        // A name that is not this server's (DNS rebinding) when the server knows its names.
        if services.origins.refusesHost(request) { return .respond(.error(.misdirected)) }
        if request.method == "OPTIONS" {
            return .respond(HTTPResponse(status: 204, headers: services.origins.corsOrigin(request).map(OriginPolicy.preflightHeaders) ?? [],
                                         body: .bytes([])))
        }
        let access = services.access
        let identify = { () throws(SwitchboardError) -> Identity in
            let identity = try access.identify(token: credentials.token, isAdmin: credentials.isAdmin)
            // A page elsewhere must not act with the browser's cookie.
            if credentials.source == .cookie, !["GET", "HEAD"].contains(request.method), !self.services.origins.permits(request) {
                throw .originNotAllowed
            }
            return identity
        }
        let limits = services.limits
        // The path is read once; every decision below is on what it matched.
        guard let segments = RequestPath.segments(request.path) else { return .respond(.error(.invalidPath)) }
        let match = APIRoute.match(method: request.method, segments: segments)
        // The route says who may use it, and that is checked here, before anything else about it.
        if case .route(let route) = match, route.access == .admin, !credentials.isAdmin {
            return .respond(.error(.adminOnly))
        }
        // Which admin routes exist is not said to those without the token:
        // under /api/admin (as read above), no route and a wrong method are 401 too.
        if !credentials.isAdmin, segments.count >= 2, APIRoute.equal(segments[0], "api"), APIRoute.equal(segments[1], "admin") {
            switch match {
            case .notFound, .methodNotAllowed: return .respond(.error(.adminOnly))
            default: break
            }
        }
        switch match {
        case .invalidPath:
            return .respond(.error(.invalidPath))
        case .notFound:
            if let upgrades = services.upgrades {
                let answer: HTTPResponse?
                do {
                    answer = try upgrades.answer(request) { () throws -> Identity in try self.upgradeIdentity(request, credentials) }
                }
                if let answer { return .respond(answer) }
            }
            if request.method == "GET" || request.method == "HEAD",
               let file = services.configuration.publicFiles?.file(for: RequestPath.canonical(segments)) {
                return .respond(HTTPResponse(status: 200, headers: [("Content-Type", file.contentType), ("Cache-Control", "no-cache")]
                                                 + PageHeaders.all, body: .bytes(file.bytes)))
            }
            return .respond(.error(.notFound))
        case .methodNotAllowed(let allowed):
            return .respond(.json(405, HTTPJSON.error(.methodNotAllowed(allowed: allowed)),
                                  headers: [("Allow", allowed.joined(separator: ", "))]))
        case .route(.health): return .needsExchange(.health, .guest)
        case .route(.metrics): return .respond(RoomEndpoints.metrics(services))
        // Signing in needs no token (a stale cookie must not stop it); registering only asks whether it is the admin.
        case .route(.sessions): return .needsExchange(.sessions, .guest)
        case .route(.accounts): return .needsExchange(.accounts, credentials.isAdmin ? .admin : .guest)
        case .route(let route):
            let identity = try identify()
            // What the route's access asks beyond an identity (the admin's was checked above).
            switch route.access {
            case .anyone, .identified, .admin: break
            case .signedIn: _ = try ConversationEndpoints.caller(identity)
            case .member:
                // Signed in, and a member: a room that is not a conversation is not one here.
                _ = try ConversationEndpoints.caller(identity)
                let room = try limits.validRoom(route.conversationRoom!)
                guard ConversationRoom.isConversation(room) else { throw SwitchboardError.notAMember(room) }
                try access.checkRoom(identity, room)
            }
            switch route {
            case .message(let room, _):
                let room = try limits.validRoom(room)
                try access.checkRoom(identity, room)
                return .needsExchange(route, identity)
            case .rooms:
                try access.checkSignedIn(identity)
                return .needsExchange(route, identity)
            case .presence(let room):
                let room = try limits.validRoom(room)
                try access.checkRoom(identity, room)
                return .respond(RoomEndpoints.presence(room: room, services: services))
            case .typing(let room): return .respond(try ConversationEndpoints.typing(room: room, identity: identity, services: services))
            case .adminConnections: return .respond(admin.connections())
            case .adminKick(let user): return .respond(try admin.kick(user: user))
            case .publish(let room), .poll(let room), .roomEvents(let room):
                let room = try limits.validRoom(room)
                try access.checkRoom(identity, room)
                // A named reader is present, and its join makes a new room exist (a publish is counted with its draft).
                if route != .publish(room: room), request.query("user") != nil || identity.user != nil {
                    try access.admitRoom(identity, room, client: request.clientAddress ?? "unknown")
                }
                return .needsExchange(route, identity)
            case .events:
                let filter = try limits.validRooms(request.query("rooms"))
                try access.checkRooms(identity, filter)
                if case .rooms(let rooms) = filter, request.query("user") != nil || identity.user != nil {
                    for room in rooms { try access.admitRoom(identity, room, client: request.clientAddress ?? "unknown") }
                }
                return .needsExchange(route, identity)
            default: return .needsExchange(route, identity)
            }
        }
    }

    /// Who opens a connection taken over after a `101` (a WebSocket, here or
    /// on the wss listener): the request's token, and a page elsewhere may
    /// not open a socket in this browser's name.
    func upgradeIdentity(_ request: HTTPRequest) throws(SwitchboardError) -> Identity {
        try upgradeIdentity(request, HTTPCredentials(request, adminToken: services.configuration.adminToken))
    }

    private func upgradeIdentity(_ request: HTTPRequest, _ credentials: HTTPCredentials) throws(SwitchboardError) -> Identity {
        if services.origins.refusesHost(request) { throw .misdirected }
        guard services.origins.permits(request) else { throw .originNotAllowed }
        return try services.access.identify(token: credentials.token, isAdmin: credentials.isAdmin)
    }

    /// The routes that suspend, stream or wait for the store: only those
    /// ``decide(_:)`` handed over, so their rooms are valid and allowed.
    private func carryOut(_ route: APIRoute, identity: Identity, exchange: HTTPExchange) throws -> HTTPHandlerResult {
        let limits = services.limits
        switch route {
        case .publish(let room): return try Publish.message(room: room, identity: identity, exchange: exchange, services: services)
        // Rooms were validated, and checked against the identity, when the route was decided.
        case .poll(let room):
            return try Polling.answer(room: room, identity: identity, exchange: exchange, services: services)
        case .roomEvents(let room):
            return .respond(try ServerSentEvents.open(.room(room), identity: identity, exchange: exchange, services: services))
        case .events:
            return .respond(try ServerSentEvents.open(limits.validRooms(exchange.query("rooms")), identity: identity,
                                                      exchange: exchange, services: services))
        case .accounts: return try AccountEndpoints.register(exchange, identity: identity, services: services)
        case .sessions: return try AccountEndpoints.signIn(exchange, services: services)
        case .currentSession: return try AccountEndpoints.signOut(exchange, identity: identity, services: services)
        case .adminAccounts: return try AccountEndpoints.list(exchange, services: services)
        case .adminBan(let user): return try AccountEndpoints.ban(user: user, exchange: exchange, services: services)
        case .adminLift(let user): return try AccountEndpoints.lift(user: user, exchange: exchange, services: services)
        case .adminStatsEvents: return .respond(try admin.statsEvents(exchange))
        case .adminSystemMessage(let room):
            return try Publish.systemMessage(room: limits.validRoom(room), exchange: exchange, services: services)
        case .adminDelete(let id): return try admin.delete(id: id, exchange: exchange)
        case .me: return try AccountEndpoints.me(exchange, identity: identity, services: services)
        case .conversationList: return try ConversationEndpoints.list(exchange, identity: identity, services: services)
        case .createConversation: return try ConversationEndpoints.create(exchange, identity: identity, services: services)
        case .conversation(let room): return try ConversationEndpoints.one(room: room, exchange, identity: identity, services: services)
        case .renameConversation(let room):
            return try ConversationEndpoints.rename(room: room, exchange, identity: identity, services: services)
        case .addMember(let room): return try ConversationEndpoints.add(room: room, exchange, identity: identity, services: services)
        case .removeMember(let room, let user):
            return try ConversationEndpoints.remove(room: room, member: user, exchange, identity: identity, services: services)
        case .setMembership(let room):
            return try ConversationEndpoints.setMembership(room: room, exchange, identity: identity, services: services)
        case .markRead(let room): return try ConversationEndpoints.markRead(room: room, exchange, identity: identity, services: services)
        case .health: return RoomEndpoints.health(exchange, services)
        case .message(let room, let id): return try RoomEndpoints.message(room: room, id: id, exchange: exchange, services: services)
        case .rooms:
            let access = services.access
            // Public rooms only: conversations are listed by /api/conversations, to their members.
            return try RoomEndpoints.rooms(services, exchange: exchange) { room in
                (identity == .admin || !ConversationRoom.isConversation(room)) && (try? access.checkRoom(identity, room)) != nil
            }
        case .adminStats: return admin.stats(exchange)
        case .presence, .metrics, .adminConnections, .adminKick, .typing:
            return .respond(.error(.notFound))  // decided without the exchange; never here
        }
    }
}
