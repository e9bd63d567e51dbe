import Foundation
import Testing
import SwitchboardTesting

@Suite("WebSocket heartbeat")
struct WebSocketHeartbeatTests {
    @Test func aClientThatAnswersPingsStaysAndOneThatDoesNotIsClosed() throws {
        let server = try TestServer(keepaliveSeconds: 0.3)
        let silent = try TestWebSocketClient(port: server.port, path: "/api/ws")
        let alive = try TestWebSocketClient(port: server.port, path: "/api/ws")
        #expect(silent.status == 101 && alive.status == 101)
        // The live client answers every ping for a while (readText does), the other never reads.
        let until = Date().addingTimeInterval(1.5)
        var pings = 0
        while Date() < until {
            let frame = try alive.readFrame()
            if frame.opcode == 0x9 { pings += 1; try alive.send(opcode: 0xA, payload: frame.payload) }
        }
        #expect(pings >= 2)
        #expect(silent.connection.isClosedByServer())
        try alive.sendText(#"{"ping":"still"}"#)
        #expect(try alive.readJSON()["pong"] as? String == "still")
    }

    /// libmicrohttpd no longer counts upgraded sockets: the server caps them itself.
    @Test func pastTheCapTheHandshakeIsRefusedWith503() throws {
        let server = try TestServer(maxWebSockets: 2)
        let held = try (0..<2).map { _ in try TestWebSocketClient(port: server.port, path: "/api/ws") }
        for ws in held {
            try ws.sendText(#"{"ping":1}"#)  // answered once the socket is adopted, and so counted
            #expect(try ws.readJSON()["pong"] as? Int == 1)
        }
        let refused = try TestWebSocketClient(port: server.port, path: "/api/ws")
        #expect(refused.status == 503)
        try held[0].send(opcode: 0x8, payload: [0x03, 0xE8])
        #expect(held[0].connection.isClosedByServer())
        let admittedBy = Date().addingTimeInterval(5)
        var status = 0
        repeat { status = try TestWebSocketClient(port: server.port, path: "/api/ws").status } while status != 101 && Date() < admittedBy
        #expect(status == 101)
    }
}
