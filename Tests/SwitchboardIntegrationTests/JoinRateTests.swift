import Foundation
import Testing
import SwitchboardCore
import SwitchboardTesting

/// A join is stored in the room's log like a message, so under a publish
/// rate one that would appear takes a publish, on every way in: a guest
/// polling under a new name each time wrote a join (and 30 s later a leave)
/// for every request, past the rate.
@Suite("Joins under a publish rate")
struct JoinRateTests {
    @Test func aGuestUnderNewNamesIsLimitedAsItsPublishesAreOnEveryWayIn() throws {
        let server = try TestServer(auth: TestServer.auth(publishRate: 0.2, publishBurst: 2))
        let client = server.client
        #expect(try client.get("/api/rooms/lobby/messages?since=0&user=spam1").status == 200)
        #expect(try client.get("/api/rooms/lobby/messages?since=0&user=spam2").status == 200)
        let limited = try client.get("/api/rooms/lobby/messages?since=0&user=spam3")
        #expect(limited.status == 429 && limited.errorCode == "rate_limited" && Int(limited.header("Retry-After") ?? "") ?? 0 >= 1)
        // A name already present is not a join: it polls as often as it likes.
        for _ in 0..<5 { #expect(try client.get("/api/rooms/lobby/messages?since=0&user=spam1").status == 200) }
        // A stream, a socket and a line client under new names are refused the same way.
        let stream = try TestHTTPConnection(port: server.port)
        try stream.sendRequest("GET", "/api/rooms/lobby/events?user=spam4")
        #expect(try stream.readHead().0 == 429)  // the head only: a stream let through never ends
        #expect(try TestWebSocketClient(port: server.port, path: "/api/rooms/lobby/ws?user=spam5").status == 429)
        let line = try TestLineClient(port: server.tcpPort)
        try line.write("iam:spam6\n")
        #expect(try line.readUntil { $0.hasPrefix("error:") } == "error:rate_limited")
        // The log holds the two joins, and nothing of the refused.
        let messages = try client.get("/api/rooms/lobby/messages?since=0").json()["messages"] as? [[String: Any]] ?? []
        #expect(messages.filter { $0["kind"] as? String == "join" }.compactMap { $0["user"] as? String } == ["spam1", "spam2"])
        #expect(try client.get("/api/rooms/lobby/presence").text.contains("spam3") == false)
    }

    @Test func withoutARateNothingIsCounted() throws {
        let server = try TestServer()
        for index in 0..<20 {
            #expect(try server.client.get("/api/rooms/lobby/messages?since=0&user=guest\(index)").status == 200)
        }
    }
}
