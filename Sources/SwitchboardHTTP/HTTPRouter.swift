import Dispatch
import MicroHTTPD
import SwitchboardCore

/// Routes every request: refuses oversized bodies, checks the admin token,
/// matches ``APIRoute`` and hands the request to its endpoint; anything
/// else is a static file or a 404. Counts open exchanges so that shutdown
/// can wait for them.
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
        do {
            return try route(exchange)
        } catch let error as SwitchboardError {
            return .respond(.error(error))
        } catch {
            services.logger.error("request failed: \(exchange.method) \(exchange.path): \(error)")
            return .respond(.error(.storeFailure("\(error)")))
        }
    }

    private func route(_ exchange: HTTPExchange) throws -> HTTPHandlerResult {
        switch try decide(exchange.request) {
        case .respond(let response): return .respond(response)
        case .needsExchange(let route): return try carryOut(route, exchange: exchange)
        }
    }

    /// What routing decided: an answer now, or a route that needs the
    /// exchange itself (it suspends, streams, or waits for the store).
    enum Decision {
        case respond(HTTPResponse)
        case needsExchange(APIRoute)
    }

    /// Routes `request` with no I/O beyond reading state: refusals, reads,
    /// static files, the upgrade hook and admin reads are answered here.
    func decide(_ request: HTTPRequest) throws -> Decision {
        if request.bodyTooLarge {
            return .respond(.error(.bodyTooLarge(limit: services.configuration.maxBodyBytes)))
        }
        if request.path.hasPrefix("/api/admin/") || request.path == "/api/admin",
           !AdminToken.matches(request.header("Authorization"), token: services.configuration.adminToken) {
            return .respond(.json(401, HTTPJSON.error(SwitchboardError(
                .forbidden, code: "unauthorized", message: "The admin API needs 'Authorization: Bearer TOKEN'.")),
                headers: [("WWW-Authenticate", "Bearer")]))
        }
        let limits = services.limits
        switch APIRoute.match(method: request.method, path: request.path) {
        case .notFound:
            if let upgrades = services.upgrades, let answer = try upgrades.answer(request) { return .respond(answer) }
            if request.method == "GET" || request.method == "HEAD",
               let file = services.configuration.publicFiles?.file(for: request.path) {
                return .respond(HTTPResponse(status: 200, headers: [("Content-Type", file.contentType), ("Cache-Control", "no-cache")],
                                             body: .bytes(file.bytes)))
            }
            return .respond(.error(.notFound))
        case .methodNotAllowed(let allowed):
            return .respond(.json(405, HTTPJSON.error(.methodNotAllowed(allowed: allowed)),
                                  headers: [("Allow", allowed.joined(separator: ", "))]))
        case .route(.message(let room, let id)):
            return .respond(try RoomEndpoints.message(room: limits.validRoom(room), id: id, services: services))
        case .route(.rooms): return .respond(try RoomEndpoints.rooms(services))
        case .route(.presence(let room)): return .respond(RoomEndpoints.presence(room: try limits.validRoom(room), services: services))
        case .route(.health): return .respond(RoomEndpoints.health(services))
        case .route(.metrics): return .respond(RoomEndpoints.metrics(services))
        case .route(.adminStats): return .respond(.json(200, try admin.statsJSON()))
        case .route(.adminConnections): return .respond(admin.connections())
        case .route(.adminKick(let user)): return .respond(try admin.kick(user: user))
        case .route(let route): return .needsExchange(route)
        }
    }

    /// The routes that suspend, stream or wait for the store.
    private func carryOut(_ route: APIRoute, exchange: HTTPExchange) throws -> HTTPHandlerResult {
        let limits = services.limits
        switch route {
        case .publish(let room): return try Publish.message(room: room, exchange: exchange, services: services)
        case .poll(let room): return try Polling.answer(room: limits.validRoom(room), exchange: exchange, services: services)
        case .roomEvents(let room):
            return .respond(try ServerSentEvents.open(.room(limits.validRoom(room)), exchange: exchange, services: services))
        case .events:
            return .respond(try ServerSentEvents.open(try limits.validRooms(exchange.query("rooms")), exchange: exchange, services: services))
        case .adminStatsEvents: return .respond(try admin.statsEvents(exchange))
        case .adminSystemMessage(let room):
            return try Publish.systemMessage(room: limits.validRoom(room), exchange: exchange, services: services)
        case .adminDelete(let id): return try admin.delete(id: id, exchange: exchange)
        case .message, .rooms, .presence, .health, .metrics, .adminStats, .adminConnections, .adminKick:
            return .respond(.error(.notFound))  // decided without the exchange; never here
        }
    }
}
