import Foundation
import SwitchboardTesting
import Testing

/// The HTTP server with several workers (`--threads`, each a loop of its
/// own accepting on the one listening socket, as on a machine of four
/// cores or more), end to end: what the one worker of a 2-core machine is
/// tested for everywhere else.
@Suite("Several HTTP workers")
struct SeveralWorkersTests {
    /// Long polls and streams spread over three workers are all reached by
    /// one publish; a publish on each connection is answered; and a
    /// shutdown with polls parked on every worker ends them all (answered
    /// or closed), the process alive: libmicrohttpd aborts a daemon stopped
    /// with a connection still suspended.
    @Test func threeWorkersServeLongPollsStreamsAndPublishesAndStopCleanly() throws {
        let server = try TestServer(threads: 3)
        let polls = try (0..<60).map { _ in try TestHTTPConnection(port: server.port) }
        for poll in polls { try poll.sendRequest("GET", "/api/rooms/lobby/messages?since=0&wait=30") }
        let streams = try (0..<30).map { _ in try server.client.openStream("/api/rooms/lobby/events") }
        let parkedBy = Date().addingTimeInterval(10)
        while server.server.bus.parkedCount < polls.count + streams.count, Date() < parkedBy { Thread.sleep(forTimeInterval: 0.02) }

        let published = try server.client.publish(text: "to every worker")
        for poll in polls { #expect(try poll.readResponse().page().messages.map(\.id) == [published.id]) }
        for stream in streams { #expect(try stream.readEvents(1).map(\.id) == ["\(published.id)"]) }

        // A publish on each poll's own connection (whichever worker holds it).
        var ids: [Int64] = []
        for (index, poll) in polls.enumerated() {
            try poll.sendRequest("POST", "/api/rooms/lobby/messages", headers: [("Content-Type", "application/json")],
                                 body: Array(#"{"user":"w\#(index)","text":"from \#(index)"}"#.utf8))
            let response = try poll.readResponse()
            #expect(response.status == 201)
            if let id = try? response.message().id { ids.append(id) }
        }
        #expect(ids.count == polls.count && ids == ids.sorted())

        // Polls parked on every worker again, then the shutdown.
        for poll in polls { try poll.sendRequest("GET", "/api/rooms/lobby/messages?since=\(ids.last ?? 0)&wait=30") }
        let reparkedBy = Date().addingTimeInterval(10)
        while server.server.bus.parkedCount < polls.count, Date() < reparkedBy { Thread.sleep(forTimeInterval: 0.02) }
        #expect(server.server.bus.parkedCount >= polls.count)
        let stopped = Date()
        server.stop()
        #expect(Date().timeIntervalSince(stopped) < 15)
        for poll in polls {
            // Answered (an empty page) or closed, never left hanging.
            if let response = try? poll.readResponse() { #expect(response.status == 200) }
        }
    }
}
