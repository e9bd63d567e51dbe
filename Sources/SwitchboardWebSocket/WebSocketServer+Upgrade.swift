import MicroHTTPD
import SwitchboardCore
import SwitchboardHTTP

/// The HTTP side's hook: WebSocket's paths are answered here, checked, and
/// upgraded; only the handshake goes through libmicrohttpd.
extension WebSocketServer: HTTPUpgradeEndpoint {
    public func answer(_ request: HTTPRequest) throws -> HTTPResponse? {
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
        let user = try request.query("user").map { name throws(SwitchboardError) in try limits.validUser(name) }
        if let refusal = try WebSocketHandshake.refusal(request) { return refusal }
        guard !services.bus.isClosed else { throw SwitchboardError.shuttingDown }
        guard (services.connections.counts()[.websocket] ?? 0) < configuration.maxConnections else {
            throw SwitchboardError(.unavailable, code: "too_many_websockets",
                                   message: "The server holds its most WebSocket connections (\(configuration.maxConnections)).")
        }
        let asked = WebSocketRequest(filter: filter, cursor: since ?? services.bus.lastID, user: user, echo: path == .echo)
        let accept = WebSocketHandshake.acceptValue(key: WebSocketHandshake.key(request) ?? "")
        return HTTPResponse(status: 101, headers: [("Upgrade", "websocket"), ("Sec-WebSocket-Accept", accept)],
                            body: .upgrade { [self] socket in
                                adopt(descriptor: socket.descriptor, bytesAlreadyRead: socket.bytesAlreadyRead, request: asked)
                            })
    }
}
