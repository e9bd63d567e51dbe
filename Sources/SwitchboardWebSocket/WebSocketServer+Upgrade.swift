import MicroHTTPD
import SwitchboardCore
import SwitchboardHTTP

/// The HTTP side's hook: WebSocket's paths are answered here, checked, and
/// upgraded; only the handshake goes through libmicrohttpd.
extension WebSocketServer: HTTPUpgradeEndpoint {
    public func answer(_ request: HTTPRequest, identity resolve: () throws -> Identity) throws -> HTTPResponse? {
        let asked: WebSocketRequest
        do {
            guard let accepted = try accept(request, identity: resolve, checkHandshake: true) else { return nil }
            asked = accepted
        } catch let refused as RefusedHandshake {
            return refused.response
        }
        let accept = WebSocketHandshake.acceptValue(key: WebSocketHandshake.key(request) ?? "")
        return HTTPResponse(status: 101, headers: [("Upgrade", "websocket"), ("Sec-WebSocket-Accept", accept)],
                            body: .upgrade { [self] socket in
                                adopt(socket, request: asked)
                            })
    }

    /// What a handshake for one of WebSocket's paths asks for, checked as
    /// any HTTP request is (room, cursor, who, what it may read, the cap);
    /// nil when the path is not WebSocket's. `checkHandshake`: also the
    /// upgrade headers (SwiftNIO's upgrader checks its own).
    func accept(_ request: HTTPRequest, identity resolve: () throws -> Identity, checkHandshake: Bool) throws -> WebSocketRequest? {
        guard let path = WebSocketHandshake.Path(request.path) else { return nil }
        let configuration = services.configuration
        let limits = configuration.limits
        let filter: RoomFilter
        switch path {
        case .room(let room): filter = .room(try limits.validRoom(room))
        case .rooms: filter = try limits.validRooms(request.query("rooms"))
        case .echo:
            guard configuration.echo else { return nil }
            filter = .all
        }
        let since = try request.query("since").map { value throws(SwitchboardError) in try Cursor.parse(value, name: "since") }
        // Who the client is, and what it may read, decided before the 101 like any HTTP request.
        let identity = path == .echo ? Identity.guest : try resolve()
        if path != .echo { try services.access.checkRooms(identity, filter) }
        let user = try services.access.speaker(identity, naming: request.query("user"), limits: limits)
        // A named reader is present: its join makes a new room exist, and takes a publish under a rate.
        if let user {
            let client = request.clientAddress ?? "unknown"
            for room in filter.names {
                try services.access.admitRoom(identity, room, client: client)
                try services.access.admitPresence(identity, user: user, room: room, presence: services.connections.presence, client: client)
            }
        }
        if checkHandshake, let refusal = try WebSocketHandshake.refusal(request) { throw RefusedHandshake(response: refusal) }
        guard !services.bus.isClosed else { throw SwitchboardError.shuttingDown }
        guard (services.connections.counts()[.websocket] ?? 0) < configuration.maxConnections else {
            throw SwitchboardError(.unavailable, code: "too_many_websockets",
                                   message: "The server holds its most WebSocket connections (\(configuration.maxConnections)).")
        }
        return WebSocketRequest(filter: filter, cursor: since ?? services.bus.lastID, user: user, echo: path == .echo,
                                identity: identity, client: request.clientAddress ?? "unknown")
    }
}

/// A handshake refused for its headers: the answer to send as it is (a
/// JSON error, kept as its status, headers and bytes: an error is Sendable,
/// a response that may carry a stream is not).
struct RefusedHandshake: Error {
    let status: Int
    let headers: [(name: String, value: String)]
    let body: [UInt8]

    init(response: HTTPResponse) {
        status = response.status
        headers = response.headers
        if case .bytes(let bytes) = response.body { body = bytes } else { body = [] }
    }

    var response: HTTPResponse { HTTPResponse(status: status, headers: headers, body: .bytes(body)) }
}
