import Foundation
import Testing
import SwitchboardCore
import SwitchboardTesting

/// Conversations on two nodes sharing PostgreSQL: membership changed on one
/// node is enforced on the other within a second, because each node applies
/// the change as it reads the event from the shared store.
@Suite("Conversations on several nodes", .enabled(if: TestPostgres.serverURL != nil, Comment(rawValue: TestPostgres.skipReason)))
struct ConversationScaleOutTests {
    func signUp(_ client: TestHTTPClient, _ user: String) throws -> String { try NodeTestSupport.signUp(client, user) }

    func within(_ seconds: Double, _ check: () throws -> Bool) rethrows -> Bool { try NodeTestSupport.within(seconds, check) }

    @Test func membershipChangedOnOneNodeIsEnforcedOnTheOtherWithinASecond() throws {
        let database = try TestPostgres.freshDatabase()
        let a = try TestServer(databasePath: database)
        let b = try TestServer(databasePath: database)
        let luke = try signUp(a.client, "luke"), han = try signUp(a.client, "han")
        _ = try signUp(a.client, "leia")
        #expect(try within(1) { try b.client.get("/api/me", headers: [("Authorization", "Bearer \(han)")]).status == 200 })
        let json = [("Content-Type", "application/json")]
        let lukeA = [("Authorization", "Bearer \(luke)")] + json, hanB = [("Authorization", "Bearer \(han)")] + json

        // Created on A with han: B lets han read it, and han's inbox on B carries it.
        let inbox = try b.client.openStream("/api/events?access_token=\(han)")
        let created = try a.client.request("POST", "/api/conversations", headers: lukeA,
                                           body: Array(#"{"title":"Trip","members":["han","leia"]}"#.utf8))
        let room = try #require(created.json()["room"] as? String)
        #expect(try within(1) { try b.client.get("/api/rooms/\(room)/messages", headers: hanB).status == 200 })
        #expect(try inbox.readEvents(1).first?.data.contains(#""type":"created""#) == true)
        // A direct conversation asked for on B is the one made on A.
        let direct = try a.client.request("POST", "/api/conversations", headers: lukeA, body: Array(#"{"members":["han"]}"#.utf8))
        let directRoom = try #require(direct.json()["room"] as? String)
        #expect(try within(1) {
            try b.client.request("POST", "/api/conversations", headers: hanB, body: Array(#"{"members":["luke"]}"#.utf8)).json()["room"] as? String
                == directRoom
        })

        // Han follows the room on B on raw TCP and SSE; removed on A, both learn it on B within a second.
        let tcp = try TestLineClient(port: b.tcpPort)
        try tcp.write("auth:\(han)\njoin:\(room)\nwho:\n")
        _ = try tcp.readUntil { $0.hasPrefix("who:") }
        let stream = try b.client.openStream("/api/rooms/\(room)/events?access_token=\(han)")
        let removedAt = Date()
        #expect(try a.client.request("DELETE", "/api/conversations/\(room)/members/han", headers: lukeA).status == 204)
        #expect(try tcp.readUntil { $0.hasPrefix("system:you") } == "system:you are no longer in \(room)")
        #expect(try stream.readStreamEnd())
        #expect(Date().timeIntervalSince(removedAt) < 1.5)
        #expect(try b.client.get("/api/rooms/\(room)/messages", headers: hanB).errorCode == "not_a_member")
        #expect(try b.client.request("POST", "/api/rooms/\(room)/messages", headers: hanB,
                                     body: Array(#"{"text":"still here?"}"#.utf8)).errorCode == "not_a_member")

        // Typing said on A reaches a member's stream on B.
        let leia = try signUp(a.client, "leia")
        let watching = try b.client.openStream("/api/rooms/\(room)/events?access_token=\(leia)")
        _ = try watching.readEvents(1)  // her join
        #expect(try a.client.request("POST", "/api/conversations/\(room)/typing", headers: lukeA).status == 204)
        var events = try watching.readEvents(1)
        while events.last?.event != "typing" { events += try watching.readEvents(1) }
        #expect(events.last?.data == #"{"room":"\#(room)","user":"luke"}"#)
    }
}
