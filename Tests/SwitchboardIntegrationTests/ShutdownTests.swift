import SwitchboardTesting
import Foundation
import Testing
import SwitchboardCore
import SwitchboardStore

@Suite("Graceful shutdown")
struct ShutdownTests {
    @Test func shutdownAnswersLongPollsEndsStreamsAndKeepsEveryAcknowledgedMessage() throws {
        let server = try TestServer()
        let client = server.client
        let acknowledged = try (1...20).map { try client.publish(text: "kept \($0)") }
        let last = acknowledged.last!.id

        var polls: [TestHTTPConnection] = []
        for _ in 0..<10 {
            let poll = try TestHTTPConnection(port: server.port)
            try poll.sendRequest("GET", "/api/rooms/lobby/messages?since=\(last)&wait=60")
            polls.append(poll)
        }
        var streams: [TestHTTPConnection] = []
        for _ in 0..<10 {
            let stream = try client.openStream("/api/rooms/lobby/events")
            _ = try stream.readChunk()  // retry:
            streams.append(stream)
        }
        let parkedBy = Date().addingTimeInterval(10)
        while server.server.bus.parkedCount < 20, Date() < parkedBy { Thread.sleep(forTimeInterval: 0.02) }
        #expect(server.server.bus.parkedCount == 20)

        let started = Date()
        server.stop()
        #expect(Date().timeIntervalSince(started) < 5, "shutdown must not wait out the grace period")

        for poll in polls {
            let response = try poll.readResponse()
            #expect(response.status == 200)
            let page = try response.page()
            #expect(page.messages.isEmpty)
            #expect(page.next == last)
        }
        for stream in streams {
            #expect(try stream.readStreamEnd())
        }
        // New connections are refused.
        #expect(throws: (any Error).self) { _ = try TestHTTPConnection(port: server.port).sendRequest("GET", "/healthz") ; _ = try client.get("/healthz") }

        // Every acknowledged message is on disk.
        let store = try SQLiteMessageStore(path: server.databasePath)
        #expect(try store.messages(after: 0, in: .all, limit: 100).messages.map(\.id) == acknowledged.map(\.id))
        try store.close()
    }
}
