import Foundation
import Synchronization
import Testing
import SwitchboardCore
import SwitchboardTesting

/// SPEC "Replies, edits, unsend, reactions, location", end to end over
/// real sockets: every act is a message in the log, and every read shows
/// each message as it stands now, from the ring and from the store alike.
@Suite("Replies, edits, unsends and reactions")
struct ActsTests {
    typealias Support = IdentityTestSupport

    private func people(_ server: TestServer, _ names: [String] = ["luke", "leia", "han"]) throws -> [String: ConversationClient] {
        var people: [String: ConversationClient] = [:]
        for name in names { people[name] = ConversationClient(client: server.client, token: try Support.signUp(server.client, name)) }
        return people
    }

    private func id(_ response: TestResponse) throws -> Int64 {
        guard let id = try response.json()["id"] as? Int else { throw TestClientError(description: "no id: \(response.status) \(response.text)") }
        return Int64(id)
    }

    /// Every message of `room` after 0, as JSON objects by id.
    private func read(_ who: ConversationClient, _ room: String = "lobby") throws -> [Int64: [String: Any]] {
        let messages = try who.call("GET", "/api/rooms/\(room)/messages?since=0&limit=1000").json()["messages"] as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: messages.map { (Int64($0["id"] as! Int), $0) })
    }

    @Test func everyActIsALoggedMessageAndReadsShowTheMessageAsItStands() throws {
        let path = TestServer.temporaryDatabasePath()
        defer { TestStore.remove(path) }
        var server: TestServer? = try TestServer(databasePath: path)
        let people = try people(server!)
        let (luke, leia, han) = (people["luke"]!, people["leia"]!, people["han"]!)
        let first = try id(leia.publish("lobby", "meet at the hangar"))
        let reply = try luke.call("POST", "/api/rooms/lobby/messages", #"{"text":"on my way","reply_to":\#(first)}"#)
        let replyJSON = try reply.json()
        #expect(reply.status == 201 && replyJSON["reply_to"] as? Int == Int(first))
        _ = try han.call("POST", "/api/rooms/lobby/messages", #"{"text":"me too","reply_to":\#(first)}"#)

        let edit = try leia.call("PATCH", "/api/rooms/lobby/messages/\(first)", #"{"text":"meet at the hangar, bay 3"}"#)
        #expect(edit.status == 200)
        let editJSON = try edit.json()
        #expect(editJSON["kind"] as? String == "edit" && editJSON["target"] as? Int == Int(first) && editJSON["user"] as? String == "leia")
        #expect(try luke.call("PATCH", "/api/rooms/lobby/messages/\(first)", #"{"text":"mine now"}"#).errorCode == "not_your_message")

        let thumbs = "/api/rooms/lobby/messages/\(first)/reactions/%F0%9F%91%8D"
        #expect(try luke.call("PUT", thumbs).status == 200)
        #expect(try luke.call("PUT", thumbs).status == 204, "a repeat changes and stores nothing")
        #expect(try han.call("PUT", thumbs).status == 200)
        #expect(try han.call("PUT", "/api/rooms/lobby/messages/\(first)/reactions/%F0%9F%8E%89").status == 200)
        #expect(try han.call("DELETE", "/api/rooms/lobby/messages/\(first)/reactions/%F0%9F%8E%89").status == 200)
        #expect(try han.call("DELETE", "/api/rooms/lobby/messages/\(first)/reactions/%F0%9F%8E%89").status == 204)

        let replies = try luke.call("GET", "/api/rooms/lobby/messages/\(first)/replies").json()["messages"] as? [[String: Any]] ?? []
        #expect(replies.map { $0["text"] as? String } == ["on my way", "me too"])
        #expect((try luke.call("GET", "/api/rooms/lobby/messages/\(first)/replies?since=\(replies[0]["id"] as! Int)").json()["messages"]
            as? [[String: Any]])?.count == 1)

        let fromRing = try read(luke)
        let target = try #require(fromRing[first])
        #expect(target["text"] as? String == "meet at the hangar, bay 3")
        #expect(target["edited"] as? Int != nil && target["replies"] as? Int == 2)
        #expect(target["reactions"] as? [String: [String]] == ["👍": ["luke", "han"]])
        // The log holds each act once: 1 edit, 4 reaction changes (the repeats stored nothing).
        #expect(fromRing.values.filter { $0["kind"] as? String == "edit" }.count == 1)
        #expect(fromRing.values.filter { $0["kind"] as? String == "reaction" }.count == 4)
        let paged = try luke.call("GET", "/api/rooms/lobby/messages?before=\(first + 1)&limit=1").json()["messages"] as? [[String: Any]]
        #expect(paged?.first?["reactions"] as? [String: [String]] == ["👍": ["luke", "han"]])

        // After a restart every read comes from the store: the same messages, byte for byte.
        let page = "/api/rooms/lobby/messages?since=0&limit=\(fromRing.count)"
        let ringBody = try luke.call("GET", page).text
        server!.stop()
        server = try TestServer(databasePath: path)
        let again = ConversationClient(client: server!.client, token: try Support.signIn(server!.client, "luke"))
        #expect(try again.call("GET", page).text == ringBody)
    }

    @Test func anUnsentMessageIsGoneFromTheDatabaseAndItsEditsWithIt() throws {
        let path = TestServer.temporaryDatabasePath()
        defer { TestStore.remove(path) }
        var server: TestServer? = try TestServer(databasePath: path)
        let people = try people(server!)
        let (luke, leia) = (people["luke"]!, people["leia"]!)
        let secret = try id(leia.call("POST", "/api/rooms/lobby/messages", #"{"text":"the plans are in R2-ZZ9","client_id":"plans-1"}"#))
        #expect(try leia.call("PATCH", "/api/rooms/lobby/messages/\(secret)", #"{"text":"the plans are in R2-ZZ8"}"#).status == 200)
        #expect(try luke.call("DELETE", "/api/rooms/lobby/messages/\(secret)").errorCode == "not_your_message")
        #expect(try leia.call("DELETE", "/api/rooms/lobby/messages/\(secret)").status == 204)
        #expect(try leia.call("DELETE", "/api/rooms/lobby/messages/\(secret)").errorCode == "no_such_message")
        #expect(try luke.call("PUT", "/api/rooms/lobby/messages/\(secret)/reactions/x").errorCode == "no_such_message")
        let shown = try #require(try read(luke)[secret])
        #expect(shown["deleted"] as? Bool == true && shown["text"] == nil && shown["kind"] as? String == "message")
        #expect(Set(shown.keys) == ["id", "room", "user", "kind", "ts", "deleted"], "the SPEC's shape: \(shown.keys)")
        // Its client id is kept: a late retry is the same (unsent) message, not a new one.
        let retry = try leia.call("POST", "/api/rooms/lobby/messages", #"{"text":"the plans are in R2-ZZ9","client_id":"plans-1"}"#)
        let retryDeleted = try retry.json()["deleted"] as? Bool
        #expect(retry.status == 200 && retryDeleted == true)
        let unsend = try #require(try read(luke).values.first { $0["kind"] as? String == "delete" })
        #expect(unsend["target"] as? Int == Int(secret))
        #expect(try read(luke).values.allSatisfy { !(($0["text"] as? String) ?? "").contains("R2-ZZ") }, "the edit's text went too")
        // Not hidden: gone from the files (secure_delete, and the WAL checkpointed
        // after the unsend), while the server runs and after it stopped.
        for file in [path, path + "-wal"] {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data()
            #expect(bytes.range(of: Data("R2-ZZ".utf8)) == nil, "\(file) (\(bytes.count) bytes) holds the unsent text while serving")
        }
        server!.stop()
        server = nil
        for file in [path, path + "-wal"] {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data()
            #expect(bytes.range(of: Data("R2-ZZ".utf8)) == nil, "\(file) (\(bytes.count) bytes) still holds the unsent text")
        }
        // Read back from the store after a restart: the same shape as from memory.
        server = try TestServer(databasePath: path)
        let reader = ConversationClient(client: server!.client, token: try Support.signIn(server!.client, "luke"))
        let fromStore = try #require(try read(reader)[secret])
        #expect(Set(fromStore.keys) == ["id", "room", "user", "kind", "ts", "deleted"], "from the store: \(fromStore.keys)")
    }

    @Test func theEditWindowAndTheAdmin() throws {
        let server = try TestServer(editWindowSeconds: 1)
        let leia = try people(server, ["leia"])["leia"]!
        let said = try id(leia.publish("lobby", "too late to take back"))
        Thread.sleep(forTimeInterval: 1.3)
        #expect(try leia.call("PATCH", "/api/rooms/lobby/messages/\(said)", #"{"text":"x"}"#).errorCode == "edit_window_passed")
        #expect(try leia.call("DELETE", "/api/rooms/lobby/messages/\(said)").errorCode == "edit_window_passed")
        let admin = [("Authorization", "Bearer \(TestServer.adminToken)")]
        #expect(try server.client.request("DELETE", "/api/rooms/lobby/messages/\(said)", headers: admin).status == 204)
        #expect(try server.client.request("PATCH", "/api/rooms/lobby/messages/\(said)", headers: admin,
                                          body: Array(#"{"text":"x"}"#.utf8)).status == 404, "unsent: nothing to edit")

        let off = try TestServer(editWindowSeconds: 0)
        let han = try people(off, ["han"])["han"]!
        let now = try id(han.publish("lobby", "no edits here"))
        #expect(try han.call("PATCH", "/api/rooms/lobby/messages/\(now)", #"{"text":"x"}"#).errorCode == "edit_window_passed")
    }

    @Test func badInputIsRefusedClearlyAndTheServerKeepsServing() throws {
        let server = try TestServer()
        let people = try people(server)
        let (luke, leia) = (people["luke"]!, people["leia"]!)
        let said = try id(leia.publish("lobby", "hello"))
        _ = try leia.publish("elsewhere", "other room")
        let reaction = try luke.call("PUT", "/api/rooms/lobby/messages/\(said)/reactions/x")
        let act = try id(reaction)
        let cases: [(String, String, String?, String)] = [
            ("POST", "/api/rooms/elsewhere/messages", #"{"text":"x","reply_to":\#(said)}"#, "no_such_message"),
            ("POST", "/api/rooms/lobby/messages", #"{"text":"x","reply_to":999999}"#, "no_such_message"),
            ("POST", "/api/rooms/lobby/messages", #"{"text":"x","reply_to":\#(act)}"#, "not_a_message"),
            ("POST", "/api/rooms/lobby/messages", #"{"text":"x","reply_to":"7"}"#, "invalid_reply_to"),
            ("POST", "/api/rooms/lobby/messages", #"{"text":"x","reply_to":-1}"#, "invalid_reply_to"),
            ("POST", "/api/rooms/lobby/messages", #"{"location":{"lat":90.5,"lon":0}}"#, "invalid_location"),
            ("POST", "/api/rooms/lobby/messages", #"{"location":{"lat":"north","lon":0}}"#, "invalid_location"),
            ("POST", "/api/rooms/lobby/messages", #"{"location":{"lat":0,"lon":180.1}}"#, "invalid_location"),
            ("POST", "/api/rooms/lobby/messages", #"{"location":{"lat":0,"lon":0,"accuracy":-3}}"#, "invalid_location"),
            ("POST", "/api/rooms/lobby/messages", #"{"location":[1,2]}"#, "invalid_location"),
            ("PATCH", "/api/rooms/lobby/messages/\(said)", #"{"text":""}"#, "empty_text"),
            ("PATCH", "/api/rooms/lobby/messages/\(said)", #"{"text":"\#(String(repeating: "a", count: 4097))"}"#, "too_long"),
            ("PATCH", "/api/rooms/lobby/messages/\(act)", #"{"text":"x"}"#, "not_a_message"),
            ("PATCH", "/api/rooms/elsewhere/messages/\(said)", #"{"text":"x"}"#, "no_such_message"),
            ("PATCH", "/api/rooms/lobby/messages/0", #"{"text":"x"}"#, "bad_parameter"),
            ("PUT", "/api/rooms/lobby/messages/\(said)/reactions/%20", nil, "invalid_emoji"),
            ("PUT", "/api/rooms/lobby/messages/\(said)/reactions/%01", nil, "invalid_emoji"),
            ("PUT", "/api/rooms/lobby/messages/\(said)/reactions/%E2%80%AE%F0%9F%91%8D", nil, "invalid_emoji"),
            ("PUT", "/api/rooms/lobby/messages/\(said)/reactions/%E2%80%8B", nil, "invalid_emoji"),
            ("PUT", "/api/rooms/lobby/messages/\(said)/reactions/%FF", nil, "invalid_utf8"),
            ("PUT", "/api/rooms/lobby/messages/\(said)/reactions/\(String(repeating: "a", count: 17))", nil, "invalid_emoji"),
            ("PUT", "/api/rooms/lobby/messages/\(act)/reactions/x", nil, "not_a_message"),
            ("GET", "/api/rooms/lobby/messages/\(said)/replies?limit=0", nil, "bad_parameter"),
        ]
        for (method, path, body, code) in cases {
            let answer = try luke.call(method, path, body)
            #expect(answer.errorCode == code, "\(method) \(path) \(body ?? ""): \(answer.status) \(answer.text)")
        }
        // A location with no text is a message of its own.
        let shared = try luke.call("POST", "/api/rooms/lobby/messages", #"{"location":{"lat":51.5,"lon":-0.12,"accuracy":20}}"#)
        let place = try shared.json()["location"] as? [String: Double]
        #expect(shared.status == 201 && place == ["lat": 51.5, "lon": -0.12, "accuracy": 20])
        #expect(try luke.call("GET", "/healthz").status == 200)
    }

    /// One user toggling a reaction 1,000 times, and 20 clients putting
    /// the same reaction at once: each change is stored once, never a
    /// duplicate, and the message ends as the last change left it.
    @Test func aReactionStormStoresEachChangeOnce() throws {
        let server = try TestServer()
        let people = try people(server)
        let (luke, leia) = (people["luke"]!, people["leia"]!)
        let said = try id(leia.publish("lobby", "react to me"))
        let path = "/api/rooms/lobby/messages/\(said)/reactions/%E2%9D%A4"
        var changes = 0
        for turn in 0..<1000 {
            let answer = try luke.call(turn % 3 == 2 ? "PUT" : (turn % 2 == 0 ? "PUT" : "DELETE"), path)
            #expect(answer.status == 200 || answer.status == 204)
            if answer.status == 200 { changes += 1 }
        }
        let statuses = Mutex<[Int]>([])
        let (port, token) = (server.port, leia.token)
        DispatchQueue.concurrentPerform(iterations: 20) { _ in
            let status = (try? TestHTTPClient(port: port).request("PUT", path, headers: [("Authorization", "Bearer \(token)")]).status) ?? 0
            statuses.withLock { $0.append(status) }
        }
        #expect(statuses.withLock { $0.sorted() } == [200] + Array(repeating: 204, count: 19))
        let messages = try read(luke)
        let reactions = messages.values.filter { $0["kind"] as? String == "reaction" }.sorted { ($0["id"] as! Int) < ($1["id"] as! Int) }
        #expect(reactions.count == changes + 1)
        // Each stored change differs from the one before for its user: never two "on" in a row.
        let lukes = reactions.filter { $0["user"] as? String == "luke" }.map { $0["on"] as? Bool }
        #expect(zip(lukes, lukes.dropFirst()).allSatisfy { $0 != $1 })
        let expected = (lukes.last == true ? ["luke"] : []) + ["leia"]
        #expect(messages[said]?["reactions"] as? [String: [String]] == ["❤": expected])
    }

    /// One person has at most twenty reactions on a message: the 21st is
    /// refused with a reason (422 `too_many_reactions`), over HTTP and over
    /// WebSocket; others still react; one turned off makes room. Thirty at
    /// once (the check before the commit sees none of them) store twenty:
    /// the commit decides again.
    @Test func onePersonHasAtMostTwentyReactionsOnAMessage() throws {
        let server = try TestServer()
        let people = try people(server)
        let (luke, leia, han) = (people["luke"]!, people["leia"]!, people["han"]!)
        let said = try id(leia.publish("lobby", "react to me"))
        let path = { @Sendable (emoji: String) in "/api/rooms/lobby/messages/\(said)/reactions/\(emoji)" }
        for index in 1...Reactions.mostByOneUser { #expect(try luke.call("PUT", path("r\(index)")).status == 200) }
        let refused = try luke.call("PUT", path("r21"))
        #expect(refused.status == 422 && refused.text.contains("too_many_reactions"))
        #expect(try luke.call("PUT", path("r3")).status == 204, "one already on is on")
        #expect(try leia.call("PUT", path("r21")).status == 200, "another person is not held back")
        let socket = try TestWebSocketClient(port: server.port, path: "/api/rooms/lobby/ws?access_token=\(luke.token)")
        try socket.sendText(#"{"react":\#(said),"emoji":"r22","ref":1}"#)
        var answer: [String: Any] = [:]
        while answer["ref"] as? Int != 1, answer["ack"] as? Int != 1 { answer = try socket.readJSON() }
        #expect((answer["error"] as? [String: Any])?["code"] as? String == "too_many_reactions")
        #expect(try luke.call("DELETE", path("r1")).status == 200)
        #expect(try luke.call("PUT", path("r21")).status == 200, "one off makes room for another")

        let statuses = Mutex<[Int]>([])
        let (port, token) = (server.port, han.token)
        DispatchQueue.concurrentPerform(iterations: 30) { index in
            let status = (try? TestHTTPClient(port: port).request("PUT", path("h\(index)"), headers: [("Authorization", "Bearer \(token)")]).status) ?? 0
            statuses.withLock { $0.append(status) }
        }
        let reactions = try #require(try read(luke)[said]?["reactions"] as? [String: [String]])
        #expect(reactions.values.filter { $0.contains("han") }.count == Reactions.mostByOneUser)
        #expect(statuses.withLock { $0.filter { $0 == 200 }.count } == Reactions.mostByOneUser)
        #expect(reactions.values.filter { $0.contains("luke") }.count == Reactions.mostByOneUser)
    }
}
