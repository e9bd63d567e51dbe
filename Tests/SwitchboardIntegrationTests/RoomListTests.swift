import Foundation
import Synchronization
import Testing
import SwitchboardCore
import SwitchboardTesting

/// `GET /api/rooms` answers from the bus's figures (no scan of the log):
/// after every kind of write they are what the store says, which is what a
/// restarted server reads.
@Suite("The room list")
struct RoomListTests {
    typealias Support = IdentityTestSupport

    /// Each room's message count and last id, as the admin sees them.
    private func figures(_ server: TestServer) throws -> [String: [Int]] {
        let answer = try server.client.request("GET", "/api/rooms?limit=1000", headers: [("Authorization", "Bearer \(TestServer.adminToken)")])
        let rooms = try answer.json()["rooms"] as? [[String: Any]] ?? []
        var byName: [String: [Int]] = [:]
        for room in rooms { byName[room["name"] as? String ?? "?"] = [room["message_count"] as? Int ?? -1, room["last_id"] as? Int ?? -1] }
        return byName
    }

    @Test func afterEveryKindOfWriteTheListIsTheStores() throws {
        let path = TestServer.temporaryDatabasePath()
        defer { TestStore.remove(path) }
        var server: TestServer? = try TestServer(databasePath: path)
        let luke = ConversationClient(client: server!.client, token: try Support.signUp(server!.client, "luke"))
        let leia = ConversationClient(client: server!.client, token: try Support.signUp(server!.client, "leia"))
        func id(_ response: TestResponse) throws -> Int {
            try #require(try response.json()["id"] as? Int, "\(response.status) \(response.text)")
        }
        let first = try id(luke.publish("alpha", "one"))
        _ = try id(leia.publish("alpha", "two"))
        let doomed = try id(leia.publish("beta", "said too much"))
        _ = try luke.call("POST", "/api/rooms/alpha/messages", #"{"text":"a reply","reply_to":\#(first)}"#)
        #expect(try luke.call("PATCH", "/api/rooms/alpha/messages/\(first)", #"{"text":"one, edited"}"#).status == 200)
        #expect(try leia.call("PUT", "/api/rooms/alpha/messages/\(first)/reactions/%F0%9F%91%8D").status == 200)
        let unsent = try id(luke.publish("alpha", "oops"))
        #expect(try luke.call("DELETE", "/api/rooms/alpha/messages/\(unsent)").status == 204)
        // A client id sent twice stores one message.
        for _ in 0..<2 { _ = try leia.call("POST", "/api/rooms/beta/messages", #"{"text":"once","client_id":"beta-1"}"#) }
        // The operator's delete: a tombstone takes the message's place.
        let admin = [("Authorization", "Bearer \(TestServer.adminToken)")]
        #expect(try server!.client.request("DELETE", "/api/admin/messages/\(doomed)", headers: admin).status == 200)
        _ = try luke.call("POST", "/api/conversations", #"{"title":"plans","members":["leia"]}"#)
        _ = try leia.publish("gamma", "a room of its own")

        let live = try figures(server!)
        #expect(Set(live.keys).isSuperset(of: ["alpha", "beta", "gamma"]) && live.keys.contains { $0.hasPrefix("c.") }, "\(live)")
        #expect(live["beta"]?[0] == 2, "once, and the tombstone in the deleted message's place: \(live)")
        server!.stop()
        server = try TestServer(databasePath: path)
        #expect(try figures(server!) == live, "read back from the store at start")
    }

    /// A store that counts its scans for the room list.
    final class CountingStore: ForwardingMessageStore {
        let inner = InMemoryMessageStore()
        let roomScans = Atomic<Int>(0)
        func rooms() throws -> [RoomSummary] {
            roomScans.add(1, ordering: .relaxed)
            return try inner.rooms()
        }
    }

    @Test func theListTheMetricsAndTheAdminsFiguresNeverScanTheLog() throws {
        let store = CountingStore()
        let server = try TestServer(store: store)
        _ = try server.client.publish(text: "hello")
        let scansAtStart = store.roomScans.load(ordering: .relaxed)
        let admin = [("Authorization", "Bearer \(TestServer.adminToken)")]
        for _ in 0..<3 {
            #expect(try server.client.get("/api/rooms").text.contains(#""name":"lobby""#))
            #expect(try server.client.get("/metrics").status == 200)
            let stats = try server.client.request("GET", "/api/admin/stats", headers: admin)
            #expect(stats.status == 200 && stats.text.contains(#""name":"lobby""#), "\(stats.text.prefix(300))")
        }
        #expect(scansAtStart == 1 && store.roomScans.load(ordering: .relaxed) == 1, "one scan, at start")
    }

    /// The admin's stats list the hundred most recent rooms (they go to each
    /// dashboard every second) and say how many there are; the room list
    /// pages through all of them, a room entered since the start among
    /// them, in name order.
    @Test func theStatsListTheMostRecentRoomsAndTheListPagesThroughEvery() throws {
        let store = InMemoryMessageStore()
        let names = (0..<150).map { String(format: "r%03d", $0) }
        _ = try store.append(names.map { MessageDraft(room: $0, user: "u", text: "hi", kind: .message) }, timestamp: 1)
        let server = try TestServer(store: store)
        let admin = [("Authorization", "Bearer \(TestServer.adminToken)")]
        let stats = try server.client.request("GET", "/api/admin/stats", headers: admin).json()
        let listed = (stats["rooms"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(listed == Array(names.reversed().prefix(100)), "the newest first: \(listed.prefix(3))")
        #expect(stats["room_count"] as? Int == 150 && stats["user_count"] as? Int == 0)

        let watcher = try server.client.openStream("/api/rooms/r050x/events?user=watcher")
        defer { watcher.close() }
        _ = try watcher.readEvents(1)  // the watcher's join, the one message of r050x
        var paged: [String] = []
        var after = ""
        repeat {
            let page = try server.client.get("/api/rooms?limit=7&after=\(after)").json()
            paged += (page["rooms"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            after = page["next"] as? String ?? ""
        } while !after.isEmpty
        #expect(paged == (names + ["r050x"]).sorted(), "\(paged.count) rooms")
    }
}
