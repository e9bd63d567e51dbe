import SwitchboardTesting
import Foundation
import Testing
import SwitchboardCore

@Suite("Server-Sent Events")
struct ServerSentEventsTests {
    @Test func streamStartsWithRetryAndCarriesLiveMessagesWithHeaders() throws {
        let server = try TestServer()
        let connection = try TestHTTPConnection(port: server.port)
        try connection.sendRequest("GET", "/api/rooms/lobby/events")
        let (status, headers) = try connection.readHead()
        #expect(status == 200)
        #expect(headers["content-type"] == "text/event-stream; charset=utf-8")
        #expect(headers["cache-control"] == "no-cache")
        #expect(headers["x-accel-buffering"] == "no")
        let first = try connection.readChunk().map { String(decoding: $0, as: UTF8.self) }
        #expect(first == "retry: 2000\n\n")

        let published = try server.client.publish(text: "live")
        try server.client.publish("other", text: "not here")
        let events = try connection.readEvents(1)
        #expect(events == [TestSSEEvent(id: "\(published.id)", event: "message",
                                        data: String(decoding: MessageJSON.encode(published), as: UTF8.self))])
    }

    @Test func resumesAfterLastEventIDAndSinceWithNoGapOrDuplicate() throws {
        let server = try TestServer()
        let client = server.client
        let sent = try (1...5).map { try client.publish(text: "m\($0)") }

        let bySince = try client.openStream("/api/rooms/lobby/events?since=\(sent[1].id)")
        #expect(try bySince.readEvents(3).map(\.id) == sent[2...].map { "\($0.id)" })

        // The header wins over the URL's since, as when a browser reconnects.
        let byHeader = try client.openStream("/api/rooms/lobby/events?since=0", headers: [("Last-Event-ID", "\(sent[3].id)")])
        #expect(try byHeader.readEvents(1).map(\.id) == ["\(sent[4].id)"])

        // And both go on live.
        let next = try client.publish(text: "m6")
        #expect(try bySince.readEvents(1).map(\.id) == ["\(next.id)"])
        #expect(try byHeader.readEvents(1).map(\.id) == ["\(next.id)"])
    }

    @Test func resumesAcrossARestartOnTheSameDatabase() throws {
        var server = try TestServer()
        let before = try (1...3).map { try server.client.publish(text: "before \($0)") }
        let stream = try server.client.openStream("/api/rooms/lobby/events?since=0")
        let received = try stream.readEvents(3)
        #expect(received.map(\.id) == before.map { "\($0.id)" })
        let lastSeen = received.last!.id!

        server = try server.restarted()
        #expect(try stream.readStreamEnd())

        // Messages published while the client was away, then resume.
        let during = try server.client.publish(text: "while you were away")
        #expect(during.id > before.last!.id)
        let resumed = try server.client.openStream("/api/rooms/lobby/events", headers: [("Last-Event-ID", lastSeen)])
        let after = try server.client.publish(text: "after")
        #expect(try resumed.readEvents(2).map(\.id) == ["\(during.id)", "\(after.id)"])
    }

    @Test func multiRoomStreamFollowsOnlyItsRooms() throws {
        let server = try TestServer()
        let stream = try server.client.openStream("/api/events?rooms=a,b")
        let a = try server.client.publish("a", text: "in a")
        try server.client.publish("c", text: "in c")
        let b = try server.client.publish("b", text: "in b")
        #expect(try stream.readEvents(2).map(\.id) == ["\(a.id)", "\(b.id)"])

        let everything = try server.client.openStream("/api/events?since=0")
        #expect(try everything.readEvents(3).count == 3)
    }

    @Test func textCannotForgeSSEFields() throws {
        let server = try TestServer()
        let stream = try server.client.openStream("/api/rooms/lobby/events")
        let evil = "hi\n\nid: 999\nevent: system\ndata: forged\r\n\rdata: x"
        let published = try server.client.publish(text: evil)
        try server.client.publish(text: "next")
        let events = try stream.readEvents(2)
        #expect(events[0].id == "\(published.id)")
        #expect(events[0].event == "message")
        let decoded = try JSONDecoder().decode(Message.self, from: Data(events[0].data.utf8))
        #expect(decoded.text == evil)
        #expect(events[1].data.contains("\"next\""))
    }

    @Test func keepaliveCommentsFlowAndVanishedClientsAreReleased() throws {
        let server = try TestServer(keepaliveSeconds: 0.3)
        let stream = try server.client.openStream("/api/rooms/lobby/events")
        var comments: [String] = []
        let published = try server.client.publish(text: "between keepalives")
        Thread.sleep(forTimeInterval: 0.8)
        #expect(try stream.readEvents(1, comments: &comments).map(\.id) == ["\(published.id)"])
        // Another event after the keepalives shows they were written in between.
        Thread.sleep(forTimeInterval: 0.5)
        try server.client.publish(text: "after")
        _ = try stream.readEvents(1, comments: &comments)
        #expect(comments.contains(": keepalive"))

        let gone = try server.client.openStream("/api/rooms/lobby/events")
        #expect((server.server.connections.counts()[.sse] ?? 0) == 2)
        gone.reset()
        let releasedBy = Date().addingTimeInterval(10)
        while (server.server.connections.counts()[.sse] ?? 0) > 1, Date() < releasedBy { Thread.sleep(forTimeInterval: 0.05) }
        #expect((server.server.connections.counts()[.sse] ?? 0) == 1)
    }

    @Test func aClientThatClosesItsStreamLeavesAtOnceNotAtAKeepalive() throws {
        // The default keepalive (15 s): a parked stream's connection is
        // suspended, and only the hang-up watch sees its client close.
        let logs = RecordedLogs()
        let server = try TestServer(logger: logs.logger())
        let watcher = try TestLineClient(port: server.tcpPort, readTimeoutSeconds: 5)
        try watcher.write("iam:watcher\n")
        #expect(try watcher.readLine() == "watcher has joined")
        let streams = try (0..<20).map { _ in try server.client.openStream("/api/rooms/lobby/events") }
        let luke = try server.client.openStream("/api/rooms/lobby/events?user=luke")
        #expect(try watcher.readLine() == "luke has joined")
        #expect((server.server.connections.counts()[.sse] ?? 0) == 21)

        luke.close()  // a FIN, as a browser tab or curl closing
        #expect(try watcher.readLine() == "luke has left")
        for stream in streams { stream.close() }
        let releasedBy = Date().addingTimeInterval(5)
        while (server.server.connections.counts()[.sse] ?? 0) > 0, Date() < releasedBy { Thread.sleep(forTimeInterval: 0.05) }
        #expect((server.server.connections.counts()[.sse] ?? 0) == 0)
        // A client leaving is routine: no warning for it ("application error" was one for each).
        #expect(logs.messages(atLeast: .warning) == [])

        // The server goes on serving streams.
        let next = try server.client.openStream("/api/rooms/lobby/events")
        let published = try server.client.publish(text: "still here")
        #expect(try next.readEvents(1).map(\.id) == ["\(published.id)"])
    }

    @Test func streamParkedLongerThanTheIdleTimeoutSurvives() throws {
        // Parked streams are suspended and never time out; resumed ones must
        // not be cut for the time they spent parked.
        let server = try TestServer(keepaliveSeconds: 1.5, idleTimeout: 1)
        let stream = try server.client.openStream("/api/rooms/lobby/events")
        Thread.sleep(forTimeInterval: 2.5)
        let published = try server.client.publish(text: "still there?")
        #expect(try stream.readEvents(1).map(\.id) == ["\(published.id)"])
    }
}
