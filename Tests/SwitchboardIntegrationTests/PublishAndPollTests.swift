import SwitchboardTesting
import Foundation
import Testing
import SwitchboardCore

@Suite("Publish and short poll over HTTP")
struct PublishAndPollTests {
    @Test func formPublishAnswers201WithTheStoredMessageAndLocation() throws {
        let server = try TestServer()
        let response = try server.client.postForm("lobby", user: "  luke ", text: "hi\r\n")
        #expect(response.status == 201)
        #expect(response.header("content-type") == "application/json; charset=utf-8")
        let message = try response.message()
        #expect(message.user == "luke")
        #expect(message.text == "hi")
        #expect(message.room == "lobby")
        #expect(message.kind == .message)
        #expect(message.id == 1)
        #expect(abs(message.ts - Int64(Date().timeIntervalSince1970 * 1000)) < 60_000)
        #expect(response.header("location") == "/api/rooms/lobby/messages/1")
        // Only a read says `no-store` (PROTOCOL.md): a POST's answer is not stored anyway.
        #expect(response.header("cache-control") == nil)
        // The JSON keeps the documented field order.
        #expect(response.text.hasPrefix(#"{"id":1,"room":"lobby","user":"luke","text":"hi","kind":"message","ts":"#))

        let fetched = try server.client.get("/api/rooms/lobby/messages/1")
        #expect(fetched.status == 200)
        #expect(fetched.header("cache-control") == "no-store")
        #expect(try fetched.message() == message)
    }

    @Test func jsonPublishKeepsInnerNewlinesAndUnicode() throws {
        let server = try TestServer()
        let response = try server.client.postJSON("lobby", #"{"user":"Léia 🚀","text":"line one\nline two"}"#)
        #expect(response.status == 201)
        let message = try response.message()
        #expect(message.user == "Léia 🚀")
        #expect(message.text == "line one\nline two")
    }

    @Test func shortPollReturnsMessagesAfterSinceWithNext() throws {
        let server = try TestServer()
        let client = server.client
        let first = try client.publish(text: "one")
        let second = try client.publish(text: "two")
        try client.publish("other", text: "elsewhere")
        let third = try client.publish(text: "three")

        let all = try client.get("/api/rooms/lobby/messages").page()
        #expect(all.messages.map(\.text) == ["one", "two", "three"])
        #expect(all.next == third.id)

        let after = try client.get("/api/rooms/lobby/messages?since=\(first.id)").page()
        #expect(after.messages.map(\.id) == [second.id, third.id])
        #expect(after.next == third.id)

        let limited = try client.get("/api/rooms/lobby/messages?since=0&limit=2").page()
        #expect(limited.messages.map(\.text) == ["one", "two"])
        #expect(limited.next == second.id)

        let nothing = try client.get("/api/rooms/lobby/messages?since=\(third.id)").page()
        #expect(nothing.messages.isEmpty)
        #expect(nothing.next == third.id)

        let latestTwo = try client.get("/api/rooms/lobby/messages?limit=2").page()
        #expect(latestTwo.messages.map(\.text) == ["two", "three"])
    }

    @Test func idsIncreaseAcrossRoomsAndRoomsAreListed() throws {
        let server = try TestServer()
        let a = try server.client.publish("a", text: "x")
        let b = try server.client.publish("b", text: "y")
        let a2 = try server.client.publish("a", text: "z")
        #expect(a.id < b.id && b.id < a2.id)
        let rooms = try server.client.get("/api/rooms").json()["rooms"] as? [[String: Any]] ?? []
        #expect(rooms.map { $0["name"] as? String } == ["a", "b"])
        #expect(rooms.first?["message_count"] as? Int == 2)
        #expect(rooms.first?["last_id"] as? Int == Int(a2.id))
    }

    @Test func healthzReportsAWritableStore() throws {
        let server = try TestServer()
        let response = try server.client.get("/healthz")
        #expect(response.status == 200)
        #expect(try response.json()["status"] as? String == "ok")
        // The chat page names the raw TCP port from here, whatever --tcp says.
        #expect(try response.json()["tcp_port"] as? Int == server.tcpPort)
        #expect(try response.json()["auth"] as? String == "open")
    }

    @Test func keepAliveConnectionServesSeveralRequests() throws {
        let server = try TestServer()
        let connection = try TestHTTPConnection(port: server.port)
        for index in 1...3 {
            try connection.sendRequest("POST", "/api/rooms/lobby/messages",
                                       headers: [("Content-Type", "application/x-www-form-urlencoded")],
                                       body: Array("user=kim&text=n\(index)".utf8))
            #expect(try connection.readResponse().status == 201)
        }
        try connection.sendRequest("GET", "/api/rooms/lobby/messages?since=0")
        #expect(try connection.readResponse().page().messages.count == 3)
    }
}
