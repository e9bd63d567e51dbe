import Foundation
import Testing
import SwitchboardCore
import SwitchboardTesting

/// WebSocket against a real server, with a client that writes frames exactly
/// as a test asks (masked or not, any opcode).
@Suite("WebSocket")
struct WebSocketTests {
    func socket(_ server: TestServer, _ path: String) throws -> TestWebSocketClient {
        let client = try TestWebSocketClient(port: server.port, path: path)
        guard client.status == 101 else { throw TestClientError(description: "handshake answered \(client.status)") }
        return client
    }

    @Test func theHandshakeAndItsRefusals() throws {
        let server = try TestServer()
        // RFC 6455's example key and its accept value.
        let rfc = try TestWebSocketClient(port: server.port, path: "/api/rooms/lobby/ws", key: "dGhlIHNhbXBsZSBub25jZQ==")
        #expect(rfc.status == 101)
        #expect(rfc.headers["sec-websocket-accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(rfc.headers["upgrade"]?.lowercased() == "websocket")
        let plain = try server.client.get("/api/rooms/lobby/ws")
        #expect(plain.status == 426 && plain.errorCode == "upgrade_required")
        let version = try TestWebSocketClient(port: server.port, path: "/api/ws", extraHeaders: [("Sec-WebSocket-Version", "8")])
        #expect(version.status == 426 && version.headers["sec-websocket-version"] == "13")
        let posted = try server.client.request("POST", "/api/rooms/lobby/ws")
        #expect(posted.status == 405 && posted.header("Allow") == "GET", "a WebSocket path takes GET only, as every route says")
        #expect(try TestWebSocketClient(port: server.port, path: "/api/rooms/bad%20room/ws").status == 400)
        #expect(try TestWebSocketClient(port: server.port, path: "/api/rooms/lobby/ws?since=-1").status == 400)
        #expect(try TestWebSocketClient(port: server.port, path: "/api/rooms/lobby/ws?user=a:b").status == 422)
        #expect(try TestWebSocketClient(port: server.port, path: "/api/ws", key: "short").status == 400)
        // HTTP/1.0 cannot be upgraded: a 400 that says why (before, the connection was dropped with no answer).
        let old = try TestHTTPConnection(port: server.port)
        try old.send("GET /api/ws HTTP/1.0\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
        let refusal = try old.readResponse()
        #expect(refusal.status == 400 && refusal.errorCode == "http_version", "\(refusal.status)")
        // A client that leaves before the 101: nothing is left behind, the server goes on.
        let gone = try TestHTTPConnection(port: server.port)
        try gone.send("GET /api/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
        gone.reset()
        #expect(try server.client.get("/healthz").status == 200)
    }

    @Test func replayThenLiveWithNoGapOrDuplicate() throws {
        let server = try TestServer()
        let first = try server.client.publish(text: "one")
        try server.client.publish(text: "two")
        try server.client.publish(text: "three")
        let ws = try socket(server, "/api/rooms/lobby/ws?since=\(first.id)")
        #expect(try ws.readJSON()["text"] as? String == "two")
        #expect(try ws.readJSON()["text"] as? String == "three")
        try server.client.publish(text: "four")
        let live = try ws.readText()
        #expect(live == String(decoding: try server.client.get("/api/rooms/lobby/messages/\(first.id + 3)").body, as: UTF8.self),
                "the payload is exactly the message's JSON")
    }

    @Test func publishWithAckAcrossTransportsBothWays() throws {
        let server = try TestServer()
        let nc = try TestLineClient(port: server.tcpPort)
        try nc.write("iam:han\n")
        _ = try nc.readLine()
        let ws = try socket(server, "/api/rooms/lobby/ws?user=luke")
        #expect(try ws.readJSON()["text"] as? String == "luke has joined")
        #expect(try nc.readLine() == "luke has joined")
        try ws.sendText(#"{"text":"hello from a socket","ref":7}"#)
        let echoed = try ws.readJSON(), ack = try ws.readJSON()
        #expect(echoed["text"] as? String == "hello from a socket")
        #expect(ack["ack"] as? Int == 7 && ack["id"] as? Int == echoed["id"] as? Int)
        #expect(try nc.readLine() == "luke:hello from a socket")
        try nc.write("msg:and back\n")
        #expect(try ws.readJSON()["text"] as? String == "and back")
        // Refused: one error with the ref, and the socket stays open.
        try ws.sendText(#"{"text":"","ref":"r1"}"#)
        let refused = try ws.readJSON()
        #expect((refused["error"] as? [String: Any])?["code"] as? String == "empty_text" && refused["ref"] as? String == "r1")
        try ws.sendText(#"{"ping":42}"#)
        #expect(try ws.readJSON()["pong"] as? Int == 42)
        let presence = try server.client.get("/api/rooms/lobby/presence").text
        #expect(presence.contains(#""websocket""#))
    }

    @Test func pingFramesAreAnsweredWithTheSamePayloadLongAfterTheHandshake() throws {
        let server = try TestServer()
        let ws = try socket(server, "/api/ws")
        // libmicrohttpd has long cleaned up its side of the upgraded connection
        // by now; the duplicate descriptor the socket lives on must not be closed with it.
        Thread.sleep(forTimeInterval: 1.5)
        try ws.send(opcode: 0x9, payload: Array("beat".utf8))
        let pong = try ws.readFrame()
        #expect(pong.opcode == 0xA && pong.payload == Array("beat".utf8))
    }

    @Test(arguments: [
        ("unmasked", UInt16(1002)), ("binary", 1003), ("invalid UTF-8", 1007), ("too large", 1009),
        ("reserved bit", 1002), ("undefined opcode", 1002), ("close 1005", 1002), ("close 1000", 1000),
        ("continuation first", 1002), ("1025 fragments", 1002),
    ])
    func eachBadInputGetsItsCloseCode(_ input: String, _ code: UInt16) throws {
        let server = try TestServer()
        let ws = try socket(server, "/api/ws")
        switch input {
        case "unmasked": try ws.send(opcode: 0x1, payload: Array("{}".utf8), masked: false)
        case "binary": try ws.send(opcode: 0x2, payload: [1, 2, 3])
        case "invalid UTF-8": try ws.send(opcode: 0x1, payload: [0x7B, 0xFF, 0x7D])
        case "too large": try ws.send(opcode: 0x1, payload: [UInt8](repeating: 0x61, count: 70 * 1024))
        case "reserved bit": try ws.send(opcode: 0x1, payload: Array("{}".utf8), reservedBits: 0x4)
        case "undefined opcode": try ws.send(opcode: 0x3, payload: [])
        case "close 1005": try ws.send(opcode: 0x8, payload: [0x03, 0xED])
        case "continuation first": try ws.send(opcode: 0x0, payload: Array("{}".utf8))
        case "1025 fragments":
            try ws.send(opcode: 0x1, payload: Array("{".utf8), fin: false)
            for _ in 0..<1024 { try ws.send(opcode: 0x0, payload: Array(" ".utf8), fin: false) }
        default: try ws.send(opcode: 0x8, payload: [0x03, 0xE8] + Array("bye".utf8))
        }
        let close = try ws.readClose()
        #expect(close.code == code, "\(input)")
        let reasons = ["too large": "a message may be at most 65536 bytes",
                       "continuation first": "a continuation frame with no message to continue",
                       "1025 fragments": "a message may come in at most 1024 fragments",
                       "unmasked": "client frames must be masked", "reserved bit": "reserved bits set without an extension",
                       "undefined opcode": "undefined opcode 3"]
        if let reason = reasons[input] { #expect(close.reason == reason, "\(input)") }
        #expect(ws.connection.isClosedByServer())
        #expect(try server.client.get("/healthz").status == 200)
    }

    /// A client still sending when its frame is refused reads why: the
    /// server hung up at once, and the reset made the client's kernel drop
    /// the close frame it had not read (the client saw 1006, no reason). A
    /// frame the decoder cannot read (too large) ends the server's output
    /// after its close, as no close of the client's can be read after it.
    @Test(arguments: [(UInt16(1003), "only text frames are spoken"), (1009, "a message may be at most 65536 bytes")])
    func aClientStillSendingReadsWhyItWasClosed(_ code: UInt16, _ reason: String) throws {
        let server = try TestServer()
        let ws = try socket(server, "/api/ws")
        if code == 1003 {
            try ws.send(opcode: 0x2, payload: [1, 2, 3])
        } else {
            try ws.send(opcode: 0x1, payload: [UInt8](repeating: 0x61, count: 70 * 1024))
        }
        Thread.sleep(forTimeInterval: 0.2)  // refused by now, while the client goes on
        let text = Array(#"{"text":"\#(String(repeating: "x", count: 200))"}"#.utf8)
        for _ in 0..<500 { try ws.send(opcode: 0x1, payload: text) }
        let close = try ws.readClose()
        #expect(close.code == code && close.reason == reason)
        // The client answers as RFC 6455 asks; the server hangs up without waiting out its 2 s.
        try ws.send(opcode: 0x8, payload: [0x03, 0xE8])
        let answered = Date()
        #expect(ws.connection.isClosedByServer() && Date().timeIntervalSince(answered) < 1.5)
    }

    @Test func kickClosesWith1008AndShutdownWith1001() throws {
        let server = try TestServer()
        let kicked = try socket(server, "/api/rooms/lobby/ws?user=vader")
        let stays = try socket(server, "/api/rooms/lobby/ws?user=obiwan")
        _ = try kicked.readText()
        let kick = try server.client.request("POST", "/api/admin/users/vader/kick", headers: [("Authorization", "Bearer \(TestServer.adminToken)")])
        let closed = try kick.json()["closed"] as? Int
        #expect(kick.status == 200 && closed == 1)
        #expect(try kicked.readCloseCode() == 1008)
        try kicked.send(opcode: 0x8, payload: [0x03, 0xF0])  // the client answers the close, as clients do
        #expect(kicked.connection.isClosedByServer())
        // The connection leaves the directory just after its socket closes.
        var open: Int?
        let settledBy = Date().addingTimeInterval(5)
        repeat {
            let counts = try server.client.request("GET", "/api/admin/connections", headers: [("Authorization", "Bearer \(TestServer.adminToken)")])
            open = (try counts.json()["connections"] as? [String: Any])?["websocket"] as? Int
        } while open != 1 && Date() < settledBy
        #expect(open == 1)
        server.stop()
        #expect(try stays.readCloseCode() == 1001)
    }

    @Test func aThousandSocketsEachGetTheMessage() throws {
        let server = try TestServer()
        let sockets = try (0..<1000).map { _ in try socket(server, "/api/rooms/crowd/ws") }
        let sent = try server.client.publish("crowd", text: "to everyone")
        var got = 0
        for ws in sockets where (try ws.readJSON()["id"] as? Int) == Int(sent.id) { got += 1 }
        #expect(got == 1000)
    }
}
