import Foundation
import Testing
import SwitchboardCore
import SwitchboardTesting

/// A store that stops taking writes (a full disk): publishes are refused with
/// 503 and `/healthz` says so, reads go on, and everything recovers, ids
/// contiguous, the moment writes work again.
@Suite("A failing store")
struct StoreFailureTests {
    @Test func healthSaysUnavailableWhileTheLastWriteFailedAndRecoversWithTheStore() throws {
        let store = FailingMessageStore()
        let logs = RecordedLogs()
        let server = try TestServer(store: store, storeTimeoutSeconds: 2, logger: logs.logger(level: .notice))
        let client = server.client
        let before = try client.publish(text: "before")
        #expect(try client.get("/healthz").status == 200)

        store.failWrites(true)
        for text in ["while full", "still full", "full again"] {
            let refused = try client.postForm("lobby", user: "luke", text: text)
            #expect(refused.status == 503 && refused.errorCode == "store_unavailable")
        }
        // The operator hears of it once, with the store's reason, not once a publish.
        let failures = logs.messages(atLeast: .error).filter { $0.hasPrefix("writing to the store failed") }
        #expect(failures.count == 1 && failures.first?.contains("database or disk is full") == true, "\(failures)")
        // 503, however often /healthz is asked.
        for _ in 0..<3 {
            let health = try client.get("/healthz")
            #expect(health.status == 503 && health.errorCode == "store_unavailable")
            #expect(health.text.contains("The last write to the store failed, and none has succeeded since."), "\(health.text)")
        }
        let stats = try client.get("/api/admin/stats", headers: [("Authorization", "Bearer \(TestServer.adminToken)")]).json()
        #expect(stats["store_writable"] as? Bool == false && stats["store_stalled"] as? Bool == false, "refused, not stalled")
        #expect(try client.get("/metrics").text.contains("\nswitchboard_store_writes_failing 1\n"))
        // Reads go on.
        #expect(try client.get("/api/rooms/lobby/messages?since=0").page().messages.map(\.text) == ["before"])

        store.failWrites(false)
        // A refusal is believed for --store-timeout: 503 at once, though a
        // write would now succeed (a probe's small row can fit on a full disk
        // where the message just refused did not: the soak saw /healthz say
        // 200 beside a refused publish).
        #expect(try client.get("/healthz").status == 503)
        #expect(logs.messages(atLeast: .notice).filter { $0 == "the store takes writes again" }.isEmpty)
        // Then, nothing published since: /healthz's durable write finds the
        // store writable, and ends the refusal (a server its load balancer
        // took out for the 503 would otherwise wait for a publish that never comes).
        let until = Date().addingTimeInterval(15)
        var health = try client.get("/healthz").status
        while health != 200, Date() < until {
            Thread.sleep(forTimeInterval: 0.1)
            health = try client.get("/healthz").status
        }
        #expect(health == 200)
        #expect(try client.get("/api/admin/stats", headers: [("Authorization", "Bearer \(TestServer.adminToken)")])
                    .json()["store_writable"] as? Bool == true)
        #expect(logs.messages(atLeast: .notice).filter { $0 == "the store takes writes again" }.count == 1)
        let metrics = try client.get("/metrics").text
        #expect(metrics.contains("\nswitchboard_store_writes_failing 0\n") && metrics.contains("\nswitchboard_store_stalled 0\n"))
        #expect(metrics.contains("\nswitchboard_store_timeouts_total 0\n"), "refused writes are not timeouts")
        let after = try client.publish(text: "after")
        #expect(after.id == before.id + 1)
        #expect(try client.get("/healthz").status == 200)
        _ = try client.publish(text: "and after")
        #expect(logs.messages(atLeast: .notice).filter { $0 == "the store takes writes again" }.count == 1)
    }

    /// A read the store cannot answer (the database went away) is a 503
    /// that says the store could not answer, not that a message could not
    /// be stored (what every failure said before), and the server goes on.
    @Test func aFailedReadSaysTheStoreCouldNotAnswerNotThatAMessageWasNotStored() throws {
        let store = FailingMessageStore()
        let server = try TestServer(store: store)
        let client = server.client
        let stored = try client.publish(text: "kept")

        store.failReads(true)
        let refused = try client.get("/api/rooms/lobby/messages?before=\(stored.id + 1)")
        let message = (try refused.json()["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(refused.status == 503 && refused.errorCode == "store_unavailable")
        #expect(message.hasPrefix("The store could not answer: database or disk is full"), "\(message)")
        // The room list is the bus's figures: it answers while the store cannot.
        let rooms = try client.get("/api/rooms")
        #expect(rooms.status == 200 && rooms.text.contains(#""last_id":\#(stored.id)"#), "\(rooms.text)")
        // Writes still work, and so does the ring: a publish is stored and read back from memory.
        let later = try client.publish(text: "later")
        #expect(try client.get("/api/rooms/lobby/messages?since=\(stored.id)").page().messages.map(\.id) == [later.id])

        store.failReads(false)
        let page = try client.get("/api/rooms/lobby/messages?before=\(later.id + 1)").json()["messages"] as? [[String: Any]]
        #expect(page?.compactMap { $0["text"] as? String } == ["kept", "later"])
    }
}
