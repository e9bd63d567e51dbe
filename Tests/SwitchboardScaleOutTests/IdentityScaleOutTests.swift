import Foundation
import Testing
import SwitchboardCore
import SwitchboardTesting

/// Accounts, sessions, sign-out and bans on two nodes sharing PostgreSQL:
/// what one node stores, the other honours within a second.
@Suite("Identity on several nodes", .enabled(if: TestPostgres.serverURL != nil, Comment(rawValue: TestPostgres.skipReason)))
struct IdentityScaleOutTests {
    let admin = [("Authorization", "Bearer \(TestServer.adminToken)")]
    let password = NodeTestSupport.password

    func session(_ client: TestHTTPClient, _ user: String) throws -> String { try NodeTestSupport.session(client, user) }

    func within(_ seconds: Double, _ check: () throws -> Bool) rethrows -> Bool { try NodeTestSupport.within(seconds, check) }

    @Test func anAccountMadeOnOneNodeSignsInOnAnotherAndItsBanAndSignOutReachIt() throws {
        let database = try TestPostgres.freshDatabase()
        let a = try TestServer(databasePath: database)
        let b = try TestServer(databasePath: database)
        #expect(try a.client.request("POST", "/api/accounts", body: Array("user=luke&password=\(password)".utf8)).status == 201)

        // B knows the account (its name is reserved there within a second) and its session key.
        #expect(try within(1) { try b.client.postForm("lobby", user: "luke", text: "impostor").errorCode == "name_reserved" })
        let fromB = try session(b.client, "luke")
        #expect(try a.client.get("/api/me", headers: [("Authorization", "Bearer \(fromB)")]).status == 200)

        // Signed out on A: refused on B, and B closes its connection, within a second.
        let tcp = try TestLineClient(port: b.tcpPort)
        try tcp.write("auth:\(fromB)\n")
        #expect(try tcp.readLine() == "auth:luke")
        let started = Date()
        #expect(try a.client.request("DELETE", "/api/sessions/current", headers: [("Authorization", "Bearer \(fromB)")]).status == 204)
        #expect(try tcp.readUntil { $0.hasPrefix("error:") } == "error:token_revoked")
        #expect(Date().timeIntervalSince(started) < 1.5)
        #expect(try b.client.get("/api/me", headers: [("Authorization", "Bearer \(fromB)")]).errorCode == "token_revoked")

        // Banned on A: B closes the user's socket and refuses them, within a second.
        let token = try session(b.client, "luke")
        let socket = try TestWebSocketClient(port: b.port, path: "/api/rooms/lobby/ws?access_token=\(token)")
        #expect(socket.status == 101)
        let banAt = Date()
        #expect(try a.client.request("POST", "/api/admin/users/luke/ban", headers: admin, body: Array("seconds=60".utf8)).status == 200)
        #expect(try socket.readCloseCode() == 1008)
        #expect(Date().timeIntervalSince(banAt) < 1.5)
        #expect(try b.client.get("/api/me", headers: [("Authorization", "Bearer \(token)")]).errorCode == "banned")
        // Lifted on B: A lets them back.
        #expect(try b.client.request("DELETE", "/api/admin/users/luke/ban", headers: admin).status == 204)
        #expect(try within(1) { try a.client.get("/api/me", headers: [("Authorization", "Bearer \(token)")]).status == 200 })
    }
}
