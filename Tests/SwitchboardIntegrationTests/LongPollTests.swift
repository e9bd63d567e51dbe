import SwitchboardTesting
import Foundation
import Testing
import SwitchboardCore

@Suite("Long polling")
struct LongPollTests {
    @Test func longPollIsAnsweredByAPublish() throws {
        let server = try TestServer()
        let client = server.client
        let seed = try client.publish(text: "before")
        let connection = try TestHTTPConnection(port: server.port)
        try connection.sendRequest("GET", "/api/rooms/lobby/messages?since=\(seed.id)&wait=30")
        // Give the request time to park, then publish: the answer must carry it.
        Thread.sleep(forTimeInterval: 0.3)
        let published = try client.publish(user: "han", text: "now")
        let response = try connection.readResponse()
        #expect(response.status == 200)
        let page = try response.page()
        #expect(page.messages.map(\.id) == [published.id])
        #expect(page.next == published.id)
    }

    @Test func longPollIgnoresOtherRoomsAndTimesOutEmpty() throws {
        let server = try TestServer()
        let client = server.client
        let connection = try TestHTTPConnection(port: server.port)
        try connection.sendRequest("GET", "/api/rooms/lobby/messages?since=0&wait=1")
        Thread.sleep(forTimeInterval: 0.2)
        try client.publish("elsewhere", text: "not for lobby")
        let response = try connection.readResponse()
        #expect(response.status == 200)
        let page = try response.page()
        #expect(page.messages.isEmpty)
        #expect(page.next == 0)
    }

    @Test func longPollWithNewerMessagesAnswersAtOnce() throws {
        let server = try TestServer()
        let first = try server.client.publish(text: "waiting already")
        let page = try server.client.get("/api/rooms/lobby/messages?since=0&wait=30").page()
        #expect(page.messages.map(\.id) == [first.id])
    }

    @Test func oneThousandLongPollsAreAllAnsweredByOnePublish() throws {
        let server = try TestServer()
        let count = 1000
        var connections: [TestHTTPConnection] = []
        for _ in 0..<count {
            let connection = try TestHTTPConnection(port: server.port)
            try connection.sendRequest("GET", "/api/rooms/lobby/messages?since=0&wait=60")
            connections.append(connection)
        }
        // Wait until every request is parked on the bus.
        let parkedBy = Date().addingTimeInterval(20)
        while server.server.bus.parkedCount < count, Date() < parkedBy {
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(server.server.bus.parkedCount == count)
        let published = try server.client.publish(text: "wake up, all of you")
        var answered = 0
        for connection in connections {
            let response = try connection.readResponse()
            if response.status == 200, try response.page().messages.map(\.id) == [published.id] { answered += 1 }
        }
        #expect(answered == count)
        #expect(server.server.bus.parkedCount == 0)
    }
}
