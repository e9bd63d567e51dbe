import Crypto
import Foundation
import MicroHTTPD
import SwitchboardCore
import SwitchboardHTTP

/// The WebSocket paths and the RFC 6455 handshake, with no I/O: a request
/// is checked like any other (room, cursor, user: the same 4xx JSON errors
/// as over HTTP) before anything is upgraded.
enum WebSocketHandshake {
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// Which WebSocket endpoint a path is, if any: `/api/rooms/{room}/ws`,
    /// `/api/ws` (`?rooms=a,b`), or the test-only `/api/test/ws-echo`.
    enum Path: Equatable {
        case room(String), rooms, echo

        /// Read as every path is (``RequestPath``): `//`, `.` and `..` are no path.
        init?(_ path: String) {
            guard let parts = RequestPath.segments(path) else { return nil }
            switch parts.count {
            case 2 where parts[0] == "api" && parts[1] == "ws": self = .rooms
            case 3 where parts[0] == "api" && parts[1] == "test" && parts[2] == "ws-echo": self = .echo
            case 4 where parts[0] == "api" && parts[1] == "rooms" && parts[3] == "ws": self = .room(parts[2])
            default: return nil
            }
        }
    }

    /// The 405, 426 (or 400) when the request is not a version-13 upgrade; nil when it is.
    static func refusal(_ request: HTTPRequest) throws -> HTTPResponse? {
        guard request.method == "GET" else {
            return .error(SwitchboardError(.malformed, code: "method_not_allowed", message: "Use GET here."),
                          status: 405, headers: [("Allow", "GET")])
        }
        let upgrade = request.header("Upgrade")?.lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let connection = request.header("Connection")?.lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard upgrade?.contains("websocket") == true, connection?.contains("upgrade") == true else {
            return .error(SwitchboardError(.malformed, code: "upgrade_required",
                                           message: "This endpoint speaks WebSocket: send 'Upgrade: websocket'."),
                          status: 426, headers: [("Upgrade", "websocket"), ("Connection", "Upgrade")])
        }
        guard !request.isHTTP10 else { return .error(needsHTTP11) }
        guard request.header("Sec-WebSocket-Version")?.trimmingCharacters(in: .whitespaces) == "13" else {
            return .error(SwitchboardError(.malformed, code: "unsupported_websocket_version", message: "Only WebSocket version 13 is spoken."),
                          status: 426, headers: [("Sec-WebSocket-Version", "13")])
        }
        guard let key = key(request), Data(base64Encoded: key)?.count == 16 else {
            throw SwitchboardError(.malformed, code: "bad_websocket_key", message: "Sec-WebSocket-Key must be 16 bytes in base64.")
        }
        return nil
    }

    /// An upgrade over HTTP/1.0 (RFC 6455 4.1: at least 1.1): libmicrohttpd
    /// dropped such a connection with no answer, SwiftNIO's upgrader took it.
    static let needsHTTP11 = SwitchboardError(.malformed, code: "http_version", message: "A WebSocket handshake needs HTTP/1.1.")

    static func key(_ request: HTTPRequest) -> String? {
        request.header("Sec-WebSocket-Key")?.trimmingCharacters(in: .whitespaces)
    }

    /// `Sec-WebSocket-Accept` for a `Sec-WebSocket-Key` (RFC 6455, 4.2.2).
    static func acceptValue(key: String) -> String {
        Data(Insecure.SHA1.hash(data: Array((key + guid).utf8))).base64EncodedString()
    }
}
