import Foundation
import Synchronization
import Testing
import SwitchboardCore
import SwitchboardTesting

/// SPEC "Sending exactly once", the server's side: a user's client id names
/// one message, on every transport, at once or after a restart.
@Suite("Sending exactly once")
struct ExactlyOnceTests {
    private func post(_ client: TestHTTPClient, _ body: String, headers: [(String, String)] = [], room: String = "lobby") throws -> TestResponse {
        try client.request("POST", "/api/rooms/\(room)/messages", headers: [("Content-Type", "application/json")] + headers,
                           body: Array(body.utf8))
    }

    private func stored(_ client: TestHTTPClient, _ text: String, room: String = "lobby") throws -> Int {
        let messages = try client.get("/api/rooms/\(room)/messages?since=0&limit=1000").json()["messages"] as? [[String: Any]] ?? []
        return messages.filter { $0["text"] as? String == text }.count
    }

    @Test func aRetryIsAnsweredWithTheOriginalAndStoresNothing() throws {
        let path = TestServer.temporaryDatabasePath()
        defer { TestStore.remove(path) }
        var server: TestServer? = try TestServer(databasePath: path)
        let client = server!.client
        let first = try post(client, #"{"user":"luke","text":"on my way","client_id":"m-1"}"#)
        #expect(first.status == 201)
        let firstJSON = try first.json()
        #expect(firstJSON["client_id"] as? String == "m-1")
        let again = try post(client, #"{"user":"luke","text":"on my way","client_id":"m-1"}"#)
        let againID = try again.json()["id"] as? Int
        #expect(again.status == 200 && againID == firstJSON["id"] as? Int)
        // The header names the same thing; a form carries it too.
        let byHeader = try post(client, #"{"user":"luke","text":"on my way"}"#, headers: [("Idempotency-Key", "m-1")])
        let byHeaderID = try byHeader.json()["id"] as? Int
        #expect(byHeader.status == 200 && byHeaderID == firstJSON["id"] as? Int)
        let form = try client.request("POST", "/api/rooms/lobby/messages", body: Array("user=luke&text=on+my+way&client_id=m-1".utf8))
        #expect(form.status == 200)
        // Both, naming the same id, are that id; naming two, refused (the header's was taken, the field's ignored).
        let both = try post(client, #"{"user":"luke","text":"on my way","client_id":"m-1"}"#, headers: [("Idempotency-Key", "m-1")])
        #expect(both.status == 200)
        let two = try post(client, #"{"user":"luke","text":"on my way","client_id":"m-1"}"#, headers: [("Idempotency-Key", "attempt-2")])
        #expect(two.status == 422 && two.errorCode == "invalid_client_id", "\(two.status) \(two.text)")
        #expect(try stored(client, "on my way") == 1)
        // Another user's same id is another message; the same id for other text or another room is refused.
        #expect(try post(client, #"{"user":"leia","text":"on my way","client_id":"m-1"}"#).status == 201)
        #expect(try post(client, #"{"user":"luke","text":"something else","client_id":"m-1"}"#).errorCode == "client_id_reused")
        #expect(try post(client, #"{"user":"luke","text":"on my way","client_id":"m-1"}"#, room: "other").errorCode == "client_id_reused")
        #expect(try post(client, #"{"user":"luke","text":"something else","client_id":"m-1"}"#).status == 409)
        // Edited since: a late retry of the first text is still the same message.
        let leia = try #require(try post(client, #"{"user":"leia","text":"draft","client_id":"e-1"}"#).json()["id"] as? Int)
        #expect(try client.request("PATCH", "/api/rooms/lobby/messages/\(leia)", headers: [("Content-Type", "application/json")],
                                   body: Array(#"{"user":"leia","text":"final"}"#.utf8)).status == 200)
        #expect(try post(client, #"{"user":"leia","text":"draft","client_id":"e-1"}"#).status == 200)

        // After a restart, on the same database: still the original.
        server!.stop()
        server = try TestServer(databasePath: path)
        let later = try post(server!.client, #"{"user":"luke","text":"on my way","client_id":"m-1"}"#)
        let laterID = try later.json()["id"] as? Int
        #expect(later.status == 200 && laterID == firstJSON["id"] as? Int)
        #expect(try stored(server!.client, "on my way") == 2, "luke's once, leia's once")
    }

    @Test func twentyIdenticalPublishesAtOnceStoreOne() throws {
        let server = try TestServer()
        let port = server.port
        let answers = Mutex<[(Int, Int?)]>([])
        DispatchQueue.concurrentPerform(iterations: 20) { _ in
            let response = try? TestHTTPClient(port: port).request(
                "POST", "/api/rooms/lobby/messages", headers: [("Content-Type", "application/json")],
                body: Array(#"{"user":"han","text":"burst","client_id":"burst-7"}"#.utf8))
            answers.withLock { $0.append((response?.status ?? 0, (try? response?.json())??["id"] as? Int)) }
        }
        let all = answers.withLock { $0 }
        #expect(all.filter { $0.0 == 201 }.count == 1 && all.filter { $0.0 == 200 }.count == 19, "\(all.map(\.0))")
        #expect(Set(all.compactMap(\.1)).count == 1, "20 answers, one id")
        #expect(try stored(server.client, "burst") == 1)
        // A retry takes no id of its own (each took one, unseen, before): the next message is the very next id.
        #expect(try post(server.client, #"{"user":"han","text":"burst","client_id":"burst-7"}"#, room: "other").status == 409)
        let next = try post(server.client, #"{"user":"han","text":"after the burst"}"#).json()["id"] as? Int
        #expect(next == all.compactMap(\.1).first.map { $0 + 1 })
    }

    @Test func overWebSocketTheAckCarriesTheOriginalId() throws {
        let server = try TestServer()
        let socket = try TestWebSocketClient(port: server.port, path: "/api/rooms/lobby/ws?user=rey")
        try socket.sendText(#"{"text":"hello","client_id":"ws-1","ref":1}"#)
        var acks: [Int: Int] = [:]
        while acks.count < 1 {
            let frame = try socket.readJSON()
            if let ref = frame["ack"] as? Int { acks[ref] = frame["id"] as? Int }
        }
        try socket.sendText(#"{"text":"hello","client_id":"ws-1","ref":2}"#)
        try socket.sendText(#"{"text":"changed","client_id":"ws-1","ref":3}"#)
        try socket.sendText(#"{"text":"bad","client_id":"not ok!","ref":4}"#)
        var errors: [Int: String] = [:]
        while acks.count < 2 || errors.count < 2 {
            let frame = try socket.readJSON()
            if let ref = frame["ack"] as? Int { acks[ref] = frame["id"] as? Int }
            if let ref = frame["ref"] as? Int, let error = frame["error"] as? [String: Any] { errors[ref] = error["code"] as? String }
        }
        #expect(acks[1] != nil && acks[2] == acks[1])
        #expect(errors == [3: "client_id_reused", 4: "invalid_client_id"])
        // The same id over HTTP, by the same user: the original.
        let viaHTTP = try post(server.client, #"{"user":"rey","text":"hello","client_id":"ws-1"}"#)
        let viaHTTPID = try viaHTTP.json()["id"] as? Int
        #expect(viaHTTP.status == 200 && viaHTTPID == acks[1])
    }

    @Test func badClientIdsAreRefusedNamingTheField() throws {
        let server = try TestServer()
        for bad in ["\"\"", "\"\(String(repeating: "a", count: 65))\"", "\"a b\"", "\"é\"", "\"a/b\"", "7"] {
            let answer = try post(server.client, #"{"user":"luke","text":"x","client_id":\#(bad)}"#)
            #expect(answer.status == 422 && answer.errorCode == "invalid_client_id", "\(bad): \(answer.text)")
            #expect(answer.text.contains("client_id"))
        }
        let header = try post(server.client, #"{"user":"luke","text":"x"}"#, headers: [("Idempotency-Key", "no spaces allowed")])
        #expect(header.errorCode == "invalid_client_id" && header.text.contains("Idempotency-Key"))
        #expect(try post(server.client, #"{"user":"luke","text":"x","client_id":"\#(String(repeating: "Z", count: 64))"}"#).status == 201)
    }
}
