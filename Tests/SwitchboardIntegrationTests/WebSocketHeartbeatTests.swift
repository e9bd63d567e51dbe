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
}
