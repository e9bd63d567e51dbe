import Foundation
import Synchronization
import Testing
import SwitchboardCore
import SwitchboardTesting

/// A client id on two nodes sharing PostgreSQL: the same publish sent to
/// both at once is stored once (the commit decides, under the counter's
/// lock), and every answer names that one message.
@Suite("Sending exactly once on several nodes", .enabled(if: TestPostgres.serverURL != nil, Comment(rawValue: TestPostgres.skipReason)))
struct ExactlyOnceScaleOutTests {
    @Test func theSamePublishOnTwoNodesAtOnceIsStoredOnce() throws {
        let database = try TestPostgres.freshDatabase()
        let a = try TestServer(databasePath: database)
        let b = try TestServer(databasePath: database)
        let (portA, portB) = (a.port, b.port)
        let answers = Mutex<[(Int, Int?)]>([])
        DispatchQueue.concurrentPerform(iterations: 20) { index in
            let response = try? TestHTTPClient(port: index % 2 == 0 ? portA : portB).request(
                "POST", "/api/rooms/lobby/messages", headers: [("Content-Type", "application/json"), ("Idempotency-Key", "twice-1")],
                body: Array(#"{"user":"finn","text":"once only"}"#.utf8))
            answers.withLock { $0.append((response?.status ?? 0, (try? response?.json())??["id"] as? Int)) }
        }
        let all = answers.withLock { $0 }
        #expect(all.filter { $0.0 == 201 }.count == 1 && all.filter { $0.0 == 200 }.count == 19, "\(all.map(\.0))")
        #expect(Set(all.compactMap(\.1)).count == 1)
        #expect(try TestPostgres.count(database, "SELECT count(*) FROM switchboard_messages WHERE client_id = 'twice-1'") == 1)
        let conflict = try b.client.request("POST", "/api/rooms/lobby/messages", headers: [("Content-Type", "application/json")],
                                            body: Array(#"{"user":"finn","text":"not the same","client_id":"twice-1"}"#.utf8))
        #expect(conflict.errorCode == "client_id_reused")
    }
}
