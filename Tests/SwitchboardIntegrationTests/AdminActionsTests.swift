import SwitchboardTesting
import Foundation
import Testing
import SwitchboardCore

@Suite("Admin actions: delete and kick")
struct AdminActionsTests {
    let bearer = [("Authorization", "Bearer \(TestServer.adminToken)")]

    @Test(arguments: [4096, 2])
    func deleteRemovesTheMessageEverywhereAndTellsLiveClients(recentMessages: Int) throws {
        let server = try TestServer(recentMessages: recentMessages)
        let client = server.client
        let sent = try (1...3).map { try client.publish(text: "m\($0)") }
        let tcp = try TestLineClient(port: server.tcpPort)
        try tcp.write("iam:han\n")
        _ = try tcp.readUntil { $0 == "han has joined" }
        let stream = try client.openStream("/api/rooms/lobby/events?since=0")
        _ = try stream.readEvents(4)  // three messages and han's join

        let response = try client.request("DELETE", "/api/admin/messages/\(sent[1].id)", headers: bearer)
        #expect(response.status == 200)
        let tombstone = try response.message()
        #expect(tombstone.kind == .delete && tombstone.text == "\(sent[1].id)" && tombstone.room == "lobby")
        let event = try stream.readEvents(1)[0]
        #expect(event.event == "delete")
        #expect(try JSONDecoder().decode(Message.self, from: Data(event.data.utf8)) == tombstone)

        // Gone from history, from the single-message endpoint, and from replays.
        let history = try client.get("/api/rooms/lobby/messages?since=0").page().messages
        #expect(!history.map(\.id).contains(sent[1].id))
        #expect(history.last == tombstone)
        #expect(try client.get("/api/rooms/lobby/messages/\(sent[1].id)").status == 404)
        let replay = try client.openStream("/api/rooms/lobby/events?since=0")
        let replayed = try replay.readEvents(4).compactMap { $0.id.flatMap(Int64.init) }
        #expect(!replayed.contains(sent[1].id))
        #expect(replayed.first == sent[0].id && replayed.last == tombstone.id)
        // A TCP client gets no line for a deletion.
        try client.publish(user: "leia", text: "after the delete")
        #expect(try tcp.readLine() == "leia:after the delete")

        #expect(try client.request("DELETE", "/api/admin/messages/\(sent[1].id)", headers: bearer).status == 404)
        #expect(try client.request("DELETE", "/api/admin/messages/\(tombstone.id)", headers: bearer).status == 404)
        #expect(try client.request("DELETE", "/api/admin/messages/\(sent[0].id)").status == 401)
        // Ids are never reused.
        #expect(try client.publish(text: "next").id > tombstone.id + 1)
    }

    /// A GET (a browser's prefetch, a pasted link) of an admin action's
    /// path is 405 and does nothing: it used to kick and delete.
    @Test func aGetOfAnAdminActionDoesNothing() throws {
        let server = try TestServer()
        let kept = try server.client.publish(text: "keep me")
        let tcp = try TestLineClient(port: server.tcpPort)
        try tcp.write("iam:han\n")
        _ = try tcp.readUntil { $0 == "han has joined" }
        let kick = try server.client.request("GET", "/api/admin/users/han/kick", headers: bearer)
        #expect(kick.status == 405 && kick.header("Allow") == "POST")
        let delete = try server.client.request("GET", "/api/admin/messages/\(kept.id)", headers: bearer)
        #expect(delete.status == 405 && delete.header("Allow") == "DELETE")
        #expect(try server.client.get("/api/rooms/lobby/messages/\(kept.id)").status == 200, "still there")
        try tcp.write("ping:still here\n")
        #expect(try tcp.readUntil { $0.hasPrefix("pong:") } == "pong:still here", "still connected")
    }

    @Test func kickClosesEveryConnectionOfTheUserOnEveryTransport() throws {
        let server = try TestServer()
        let watcher = try TestLineClient(port: server.tcpPort)
        try watcher.write("iam:watcher\n")
        _ = try watcher.readUntil { $0 == "watcher has joined" }
        let tcp = try TestLineClient(port: server.tcpPort)
        try tcp.write("iam:han\n")
        _ = try watcher.readUntil { $0 == "han has joined" }
        let sse = try server.client.openStream("/api/rooms/lobby/events?user=han")
        let poll = try TestHTTPConnection(port: server.port)
        try poll.sendRequest("GET", "/api/rooms/lobby/messages?since=\(Int64.max / 2)&wait=30&user=han")
        // Both TCP clients, the SSE stream and the long-poll parked on the bus.
        let parkedBy = Date().addingTimeInterval(10)
        while server.server.bus.parkedCount < 4, Date() < parkedBy { Thread.sleep(forTimeInterval: 0.02) }
        #expect(server.server.bus.parkedCount == 4)

        let response = try server.client.request("POST", "/api/admin/users/han/kick", headers: bearer)
        #expect(response.status == 200)
        #expect(try response.json()["closed"] as? Int == 3)
        #expect(tcp.isClosedByServer())
        #expect(try sse.readStreamEnd())
        let answer = try poll.readResponse()
        #expect(answer.status == 403 && answer.errorCode == "kicked")
        #expect(try watcher.readUntil { $0.hasPrefix("han ") } == "han has left")
        let users = try server.client.get("/api/rooms/lobby/presence").json()["users"] as? [[String: Any]]
        #expect(users?.compactMap { $0["user"] as? String } == ["watcher"])
        #expect(try server.client.request("POST", "/api/admin/users/nobody/kick", headers: bearer).json()["closed"] as? Int == 0)
        // A name nobody can have is refused, as everywhere else, not answered 200.
        let form = [("Content-Type", "application/x-www-form-urlencoded")] + bearer
        for (method, path, code) in [("POST", "/api/admin/users/\(String(repeating: "x", count: 300))/kick", "invalid_user"),
                                     ("POST", "/api/admin/users/han%E2%80%AE/ban", "invalid_user"),
                                     ("DELETE", "/api/admin/users/system/ban", "reserved_user")] {
            let refused = try server.client.request(method, path, headers: form, body: Array("seconds=60".utf8))
            #expect(refused.status == 422 && refused.errorCode == code, "\(method) \(path): \(refused.status) \(refused.text)")
        }
    }

    /// `c.ID` is the conversation message ID made. The admin may write to
    /// any room, but not to such a room before it is a conversation: what
    /// was written there (a system message, a publish with the token) was
    /// in its future members' history. Refused 404 `no_such_conversation`;
    /// a conversation that exists takes the admin's message.
    @Test func theAdminWritesToAConversationOnlyOnceItIsOne() throws {
        let server = try TestServer()
        let json = [("Content-Type", "application/json")] + bearer
        for (path, body) in [("/api/admin/rooms/c.999/system", #"{"text":"notice"}"#),
                             ("/api/rooms/c.998/messages", #"{"user":"announcer","text":"hi"}"#),
                             ("/api/rooms/C.997/messages", #"{"user":"announcer","text":"hi"}"#)] {
            let refused = try server.client.request("POST", path, headers: json, body: Array(body.utf8))
            #expect(refused.status == 404 && refused.errorCode == "no_such_conversation", "\(path): \(refused.status) \(refused.text)")
        }
        _ = try IdentityTestSupport.signUp(server.client, "leia")
        let luke = try IdentityTestSupport.signUp(server.client, "luke")
        let created = try server.client.request("POST", "/api/conversations",
                                                headers: [("Content-Type", "application/json")] + IdentityTestSupport.bearer(luke),
                                                body: Array(#"{"members":["leia"]}"#.utf8)).json()
        let room = try #require(created["room"] as? String)
        let notice = try server.client.request("POST", "/api/admin/rooms/\(room)/system", headers: json, body: Array(#"{"text":"notice"}"#.utf8))
        #expect(notice.status == 201, "\(notice.text)")
        let history = try server.client.get("/api/rooms/\(room)/messages?since=0", headers: IdentityTestSupport.bearer(luke)).page()
        #expect(history.messages.contains { $0.text == "notice" && $0.user == "system" })
        #expect(!history.messages.contains { $0.user == "announcer" }, "nothing from before the conversation")
    }
}
