import Foundation
import MicroHTTPD
import SwitchboardCore

/// `GET /api/rooms/{room}/ws` and `GET /api/ws?rooms=a,b`: checks the
/// request like any other (room, cursor, user: the same 4xx JSON errors)
/// and the RFC 6455 handshake, then answers `101` and hands the socket to
/// the ``WebSocketAcceptor``. Only the handshake goes through libmicrohttpd.
enum WebSocketHandshake {
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    static func answer(_ filter: RoomFilter, echo: Bool = false, exchange: HTTPExchange, services: HTTPServices) throws -> HTTPResponse {
        guard let acceptor = services.webSockets else { return .error(.notFound) }
        let since = try exchange.query("since").map { value throws(SwitchboardError) in try Cursor.parse(value, name: "since") }
        let user = try exchange.query("user").map { name throws(SwitchboardError) in try services.limits.validUser(name) }
        let upgrade = exchange.header("Upgrade")?.lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let connection = exchange.header("Connection")?.lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard exchange.method == "GET", upgrade?.contains("websocket") == true, connection?.contains("upgrade") == true else {
            return .json(426, MessageJSON.error(SwitchboardError(
                status: 426, code: "upgrade_required", message: "This endpoint speaks WebSocket: send 'Upgrade: websocket'.")),
                headers: [("Upgrade", "websocket"), ("Connection", "Upgrade")])
        }
        guard exchange.header("Sec-WebSocket-Version")?.trimmingCharacters(in: .whitespaces) == "13" else {
            return .json(426, MessageJSON.error(SwitchboardError(
                status: 426, code: "unsupported_websocket_version", message: "Only WebSocket version 13 is spoken.")),
                headers: [("Sec-WebSocket-Version", "13")])
        }
        guard let key = exchange.header("Sec-WebSocket-Key")?.trimmingCharacters(in: .whitespaces),
              Data(base64Encoded: key)?.count == 16
        else {
            throw SwitchboardError(status: 400, code: "bad_websocket_key", message: "Sec-WebSocket-Key must be 16 bytes in base64.")
        }
        guard !services.bus.isClosed else { throw SwitchboardError.shuttingDown }
        guard (services.connections.counts()[.websocket] ?? 0) < services.configuration.maxWebSockets else {
            throw SwitchboardError(status: 503, code: "too_many_websockets",
                                   message: "The server holds its most WebSocket connections (\(services.configuration.maxWebSockets)).")
        }
        let request = WebSocketRequest(filter: filter, cursor: since ?? services.bus.lastID, user: user, echo: echo)
        return HTTPResponse(status: 101, headers: [("Upgrade", "websocket"), ("Sec-WebSocket-Accept", acceptValue(key: key))],
                            body: .upgrade { socket in
                                acceptor.accept(descriptor: socket.descriptor, bytesAlreadyRead: socket.bytesAlreadyRead, request: request)
                            })
    }

    /// `Sec-WebSocket-Accept` for a `Sec-WebSocket-Key` (RFC 6455, 4.2.2).
    static func acceptValue(key: String) -> String {
        Data(SHA1.hash(Array((key + guid).utf8))).base64EncodedString()
    }
}
