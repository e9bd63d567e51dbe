import Foundation
import Synchronization
import Testing
import SwitchboardCore
import SwitchboardTesting

/// Acts on two nodes sharing PostgreSQL: an act on one node changes what
/// both show, in id order; the same reaction asked for on both at once is
/// stored once (the commit decides, under the counter's lock); and what
/// an unsend removes is gone from the database.
@Suite("Acts on several nodes", .enabled(if: TestPostgres.serverURL != nil, Comment(rawValue: TestPostgres.skipReason)))
struct ActsScaleOutTests {
    private func call(_ client: TestHTTPClient, _ token: String, _ method: String, _ path: String, _ body: String? = nil) throws -> TestResponse {
        try client.request(method, path, headers: [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")],
                           body: body.map { Array($0.utf8) })
    }

    private func messages(_ client: TestHTTPClient, _ token: String) throws -> [Int: [String: Any]] {
        let list = try call(client, token, "GET", "/api/rooms/lobby/messages?since=0&limit=1000").json()["messages"] as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: list.map { ($0["id"] as! Int, $0) })
    }

    /// Two nodes on a fresh database, with leia and luke signed up on A and known to B: their tokens.
    private func twoNodes() throws -> (database: String, a: TestServer, b: TestServer, leia: String, luke: String) {
        let database = try TestPostgres.freshDatabase()
        let a = try TestServer(databasePath: database)
        let b = try TestServer(databasePath: database)
        let leia = try NodeTestSupport.signUp(a.client, "leia"), luke = try NodeTestSupport.signUp(a.client, "luke")
        #expect(try NodeTestSupport.within(1) { try b.client.get("/api/me", headers: [("Authorization", "Bearer \(luke)")]).status == 200 })
        return (database, a, b, leia, luke)
    }

    @Test func anActOnOneNodeShowsOnBothAndARaceStoresItOnce() throws {
        let (database, a, b, leia, luke) = try twoNodes()
        let stream = try b.client.openStream("/api/rooms/lobby/events?access_token=\(luke)")

        let said = try #require(try call(a.client, leia, "POST", "/api/rooms/lobby/messages", #"{"text":"the codes are 1138"}"#).json()["id"] as? Int)
        #expect(try call(b.client, luke, "POST", "/api/rooms/lobby/messages", #"{"text":"got it","reply_to":\#(said)}"#).status == 201)
        #expect(try call(b.client, leia, "PATCH", "/api/rooms/lobby/messages/\(said)", #"{"text":"the codes are 1139"}"#).status == 200)
        // The same reaction on both nodes at once: one stored.
        let path = "/api/rooms/lobby/messages/\(said)/reactions/%F0%9F%91%8D"
        let statuses = Mutex<[Int]>([])
        let (portA, portB) = (a.port, b.port)
        DispatchQueue.concurrentPerform(iterations: 20) { index in
            let client = TestHTTPClient(port: index % 2 == 0 ? portA : portB)
            let status = (try? client.request("PUT", path, headers: [("Authorization", "Bearer \(luke)")]).status) ?? 0
            statuses.withLock { $0.append(status) }
        }
        #expect(statuses.withLock { $0.sorted() } == [200] + Array(repeating: 204, count: 19))

        // Both nodes show the message as it stands, the same.
        var onA: [Int: [String: Any]] = [:], onB: [Int: [String: Any]] = [:]
        #expect(try NodeTestSupport.within(2) {
            (onA, onB) = (try messages(a.client, luke), try messages(b.client, luke))
            return onB[said]?["reactions"] as? [String: [String]] == ["👍": ["luke"]] && onA.count == onB.count
        })
        for node in [onA, onB] {
            #expect(node[said]?["text"] as? String == "the codes are 1139" && node[said]?["edited"] != nil && node[said]?["replies"] as? Int == 1)
            #expect(node.values.filter { $0["kind"] as? String == "reaction" }.count == 1)
        }
        #expect(try call(a.client, luke, "GET", "/api/rooms/lobby/messages/\(said)/replies").json()["messages"].map { ($0 as? [Any])?.count } == 1)

        // Unsent on A: gone from the database, and shown unsent on B's stream and reads.
        #expect(try call(a.client, leia, "DELETE", "/api/rooms/lobby/messages/\(said)").status == 204)
        var kinds: [String] = []
        while !kinds.contains("delete") {
            let event = try stream.readEvents(1)[0]
            if let kind = (try? JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String: Any])?["kind"] as? String { kinds.append(kind) }
        }
        #expect(kinds.filter { $0 != "join" } == ["message", "message", "edit", "reaction", "delete"], "in id order")
        #expect(try NodeTestSupport.within(1) { try messages(b.client, luke)[said]?["deleted"] as? Bool == true })
        let count = try TestPostgres.count(database, "SELECT count(*) FROM switchboard_messages WHERE text LIKE '%113%'")
        #expect(count == 0, "the text and its edit are gone from the database")
    }

    /// Thirty reactions of one person at once, on two nodes: twenty are
    /// stored (PostgreSQL's commit decides, as `Reactions` does in Swift),
    /// and both nodes show those twenty.
    @Test func aRaceOfOnePersonsReactionsStoresTwenty() throws {
        let (database, a, b, leia, luke) = try twoNodes()
        let said = try #require(try call(a.client, leia, "POST", "/api/rooms/lobby/messages", #"{"text":"react"}"#).json()["id"] as? Int)
        let statuses = Mutex<[Int]>([])
        let (portA, portB) = (a.port, b.port)
        DispatchQueue.concurrentPerform(iterations: 30) { index in
            let client = TestHTTPClient(port: index % 2 == 0 ? portA : portB)
            let path = "/api/rooms/lobby/messages/\(said)/reactions/r\(index)"
            let status = (try? client.request("PUT", path, headers: [("Authorization", "Bearer \(luke)")]).status) ?? 0
            statuses.withLock { $0.append(status) }
        }
        #expect(statuses.withLock { $0.filter { $0 == 200 }.count } == Reactions.mostByOneUser)
        #expect(try NodeTestSupport.within(2) {
            try [a, b].allSatisfy { node in
                (try messages(node.client, luke)[said]?["reactions"] as? [String: [String]])?.count == Reactions.mostByOneUser
            }
        })
        let stored = try TestPostgres.count(database, "SELECT count(*) FROM switchboard_messages WHERE kind = 'reaction'")
        #expect(stored == Reactions.mostByOneUser)
    }
}
