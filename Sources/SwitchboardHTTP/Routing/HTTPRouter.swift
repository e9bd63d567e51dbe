import Dispatch
import MicroHTTPD
import SwitchboardCore

/// Routes every request through its layers, in order: CORS headers; the
/// refusals that need no route (too many parameters, a body too large, a
/// Host that is not ours, a CORS preflight); the path read once
/// (``RequestPath``); the route table (``RouteTable/api``) with each
/// route's access checked on the route that matched; and, for a path no
/// route has, the WebSocket upgrade and the static files. Counts open
/// exchanges so that shutdown can wait for them.
final class HTTPRouter: HTTPRequestHandler {
    private let services: HTTPServices
    private let admin: AdminEndpoints
    private let table: RouteTable
    /// Entered when a request is routed, left when its exchange completes.
    let openExchanges = DispatchGroup()

    init(services: HTTPServices, admin: AdminEndpoints, table: RouteTable = .api) {
        self.services = services
        self.admin = admin
        self.table = table
    }

    func handle(_ exchange: any HTTPExchanging) -> HTTPHandlerResult {
        openExchanges.enter()
        exchange.onCompletion { [openExchanges] _ in openExchanges.leave() }
        let request = exchange.request
        if let origin = services.origins.corsOrigin(request) {
            exchange.responseHeaders = OriginPolicy.corsHeaders(origin)
        }
        switch decide(request) {
        case .respond(let response):
            return .respond(response)
        case .route(let route, let parameters, let identity):
            do {
                // What the route asks of the store queues in its caller's line (StoreGate: callers in turns).
                return try StoreCaller.of(identity, guest: Self.guestCaller(exchange)).run {
                    try route.handler(RouteRequest(exchange: exchange, identity: identity, route: route, parameters: parameters,
                                                   services: services, admin: admin))
                }
            } catch let error as SwitchboardError {
                return .respond(.error(error))
            } catch {
                services.logger.error("request failed: \(exchange.method) \(exchange.path): \(error)")
                return .respond(.error(.storeUnavailable(because: error)))
            }
        }
    }

    /// A guest's line at the store gate: where it connects from, read off
    /// the socket's address with no text made (a socketless exchange's text).
    private static func guestCaller(_ exchange: any HTTPExchanging) -> StoreCaller {
        if let address = exchange.clientSocketAddress, let source = ConnectionSource(address) { return .address(source) }
        return .address(text: exchange.clientAddress ?? "")
    }

    /// Where a request's body goes: buffered, but for a route that streams
    /// it (an upload), which is asked once its access is admitted; a request
    /// the layers refuse reads none of it.
    func bodyReading(for exchange: any HTTPExchanging) -> HTTPBodyReading {
        guard table.streamsBody(method: exchange.method, path: exchange.path) else { return .buffer }
        guard case .route(let route, let parameters, let identity) = decide(exchange.request), let body = route.body else {
            return .refuse
        }
        do {
            return try body(RouteRequest(exchange: exchange, identity: identity, route: route, parameters: parameters,
                                         services: services, admin: admin))
        } catch {
            return .refuse
        }
    }

    /// What the layers decided: an answer now (a refusal, a file, an
    /// upgrade), or the route to run with who asked.
    enum Decision {
        case respond(HTTPResponse)
        case route(Route, parameters: [String], identity: Identity)
    }

    /// Runs the layers on `request` with no I/O: every refusal is decided
    /// here, before any handler runs.
    func decide(_ request: HTTPRequest) -> Decision {
        let credentials = HTTPCredentials(request, adminToken: services.configuration.adminToken)
        do {
            return try decide(request, credentials)
        } catch {
            let error = SwitchboardError.storeUnavailable(because: error)
            var response = HTTPResponse.error(error)
            // A stale session cookie would refuse every request the page makes: clear it.
            if error.kind == .unauthenticated, credentials.source == .cookie {
                response.headers.append(HTTPCredentials.clearedCookie(secure: services.configuration.secureCookies))
            }
            return .respond(response)
        }
    }

    private func decide(_ request: HTTPRequest, _ credentials: HTTPCredentials) throws -> Decision {
        if let refusal = refusal(request) { return .respond(refusal) }
        // The path is read once; every decision below is on what it matched.
        guard let path = RequestPath.read(request.path) else { return .respond(.error(.invalidPath)) }
        let match = table.match(method: request.method, path: path)
        if case .route(let route, let parameters) = match {
            return .route(route, parameters: parameters, identity: try admit(request, credentials, to: route, parameters))
        }
        // Which admin routes exist is not said to those without the token:
        // under /api/admin, no route and a wrong method are 401 too.
        if !credentials.isAdmin, path.count >= 2, path.segment(0, is: "api"), path.segment(1, is: "admin") {
            return .respond(.error(.adminOnly))
        }
        switch match {
        case .methodNotAllowed(let allowed):
            return .respond(.json(405, HTTPJSON.error(.methodNotAllowed(allowed: allowed)),
                                  headers: [("Allow", allowed.joined(separator: ", "))]))
        case .invalidPath:
            return .respond(.error(.invalidPath))
        case .notFound, .route:
            return .respond(try fallback(request, credentials, path.strings))
        }
    }

    /// What is refused before any route: too many query parameters, a path
    /// or query that is no text, a body too large, a Host that is not this
    /// server's (DNS rebinding), and CORS preflights (answered here).
    private func refusal(_ request: HTTPRequest) -> HTTPResponse? {
        if request.tooManyParameters { return .error(.tooManyParameters, status: 414, headers: []) }
        if request.targetNotUTF8 { return .error(.targetNotUTF8) }
        // Its body is not read: the connection must not be read on.
        if request.framingIsAmbiguous { return .error(.ambiguousFraming, status: 400, headers: [("Connection", "close")]) }
        if request.hostIsInvalid { return .error(.invalidHost, status: 400, headers: [("Connection", "close")]) }
        if request.bodyTooLarge { return .error(.bodyTooLarge(limit: services.configuration.maxBodyBytes)) }
        if services.origins.refusesHost(request) { return .error(.misdirected) }
        if request.method == "OPTIONS" {
            // The CORS headers themselves are the exchange's (`handle`), as on every answer.
            let allowed = services.origins.corsOrigin(request) != nil
            return HTTPResponse(status: 204, headers: allowed ? OriginPolicy.preflightHeaders(methods: table.methods) : [],
                                body: .bytes([]))
        }
        return nil
    }

    /// Who may use `route`, as it declares (``RouteAccess``), checked on the
    /// route that matched: the admin's token first, then the caller's
    /// identity, and a `{room}` parameter (valid, and readable by the
    /// caller, or for a member's route a conversation the caller is in).
    private func admit(_ request: HTTPRequest, _ credentials: HTTPCredentials, to route: Route,
                       _ parameters: [String]) throws -> Identity {
        // The admin's token before anything else about an admin route (not even whether its room is valid).
        if route.access == .admin, !credentials.isAdmin { throw SwitchboardError.adminOnly }
        let room = try route.path.roomIndex.map { try services.limits.validRoom(parameters[$0]) }
        switch route.access {
        case .anyone:
            return credentials.isAdmin ? .admin : .guest
        case .admin:
            if let room { try services.access.checkRoom(.admin, room) }
            return .admin
        case .identified, .signedIn, .member:
            let identity = try identify(request, credentials)
            switch route.access {
            case .signedIn: _ = try ConversationService.caller(identity)
            case .member: _ = try services.conversations.checkMember(identity, of: room ?? "")
            default: if let room { try services.access.checkRoom(identity, room) }
            }
            return identity
        }
    }

    /// The request's identity; a page elsewhere must not act with the browser's cookie.
    private func identify(_ request: HTTPRequest, _ credentials: HTTPCredentials) throws -> Identity {
        let identity = try services.access.identify(token: credentials.token, isAdmin: credentials.isAdmin)
        if credentials.source == .cookie, !["GET", "HEAD"].contains(request.method), !services.origins.permits(request) {
            throw SwitchboardError.originNotAllowed
        }
        return identity
    }

    /// A path no route has: a WebSocket upgrade, a static file, or 404.
    private func fallback(_ request: HTTPRequest, _ credentials: HTTPCredentials, _ segments: [String]) throws -> HTTPResponse {
        if let upgrades = services.upgrades,
           let answer = try upgrades.answer(request, identity: { () throws -> Identity in try self.upgradeIdentity(request, credentials) }) {
            return answer
        }
        if request.method == "GET" || request.method == "HEAD",
           let file = services.configuration.publicFiles?.file(for: RequestPath.canonical(segments),
                                                                ifNoneMatch: request.header("If-None-Match")) {
            // `no-cache`: kept, but asked again each time (an edit shows at once); the tag makes asking cheap.
            let headers = [("Cache-Control", "no-cache"), ("ETag", file.etag)] + PageHeaders.all
            guard let bytes = file.bytes else { return HTTPResponse(status: 304, headers: headers) }
            return HTTPResponse(status: 200, headers: [("Content-Type", file.contentType)] + headers, body: .bytes(bytes))
        }
        return .error(.notFound)
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
}
