import Dispatch
import Foundation
import Synchronization
import Testing
import SwitchboardCore
import SwitchboardTesting

/// No libmicrohttpd worker and no event loop waits for the store: with every
/// commit stalled (a disk that has stopped), every other connection is
/// still served, and once the store moves again everything queued is
/// stored, in order.
@Suite("A stalled store")
struct StalledStoreTests {
    @Test func everyOtherConnectionIsServedWhileCommitsStall() throws {
        let store = GatedMessageStore(closed: false)
        let server = try TestServer(store: store)
        store.closeGate()

        // A publish waits for its commit (answered later, not refused).
        let published = Mutex<Int?>(nil)
        let publisher = DispatchGroup()
        publisher.enter()
        let port = server.port
        Thread {
            let status = try? TestHTTPClient(port: port).postForm("stalled", user: "luke", text: "waits for the disk").status
            published.withLock { $0 = status }
            publisher.leave()
        }.start()

        // SSE streams with a user (each queues a join) on more connections
        // than there are workers: every one opens (answers 200) at once.
        let streams = try (0..<8).map { index in
            try server.client.openStream("/api/rooms/elsewhere/events?user=sse\(index)")
        }
        // A short poll and a long poll's timeout on other rooms answer.
        #expect(try server.client.get("/api/rooms/other/messages?since=0").status == 200)
        #expect(try server.client.get("/api/rooms/other/messages?since=0&wait=1").status == 200)
        // A raw TCP client joins (its join queued) and is answered.
        let han = try TestLineClient(port: server.tcpPort)
        try han.write("iam:han\nping:still serving\n")
        #expect(try han.readUntil { $0.hasPrefix("pong:") } == "pong:still serving")
        #expect(published.withLock { $0 } == nil, "the publish is still waiting for its commit")

        // The disk comes back: the publish is acknowledged, and every join is stored.
        store.openGate()
        #expect(publisher.wait(timeout: .now() + 15) == .success)
        #expect(published.withLock { $0 } == 201)
        #expect(try han.readUntil { $0 == "han has joined" } == "han has joined")
        server.server.bus.waitForQueuedCommits(seconds: 10)
        let joins = try server.server.bus.read(after: 0, in: .all, access: .everything, limit: 100).messages.filter { $0.message.kind == .join }
        #expect(Set(joins.map(\.message.user)) == Set((0..<8).map { "sse\($0)" } + ["han"]))
        for stream in streams { stream.close() }
    }

    /// Publishers that leave (closing or resetting their socket) while their
    /// commit is stalled: each commit is stored when the disk comes back,
    /// its answer goes to nobody, and the server serves on.
    @Test func aPublisherThatLeavesBeforeItsCommitLeavesTheServerServing() throws {
        let store = GatedMessageStore(closed: false)
        let server = try TestServer(store: store)
        store.closeGate()
        let clients = try (0..<6).map { index in
            let client = try TestHTTPConnection(port: server.port, timeoutSeconds: 10)
            try client.sendRequest("POST", "/api/rooms/left/messages",
                                   headers: [("Content-Type", "application/x-www-form-urlencoded")],
                                   body: Array("user=leia&text=gone+before+answer+\(index)".utf8))
            return client
        }
        Thread.sleep(forTimeInterval: 0.2)  // each request read, its commit queued
        // Half end their stream, half reset it (a client that crashed).
        for (index, client) in clients.enumerated() {
            if index.isMultiple(of: 2) { client.reset() } else { client.close() }
        }
        Thread.sleep(forTimeInterval: 0.2)
        store.openGate()
        server.server.bus.waitForQueuedCommits(seconds: 10)
        let texts = try server.server.bus.read(after: 0, in: .room("left"), access: .everything, limit: 100).messages.map(\.message.text)
        #expect(Set(texts) == Set((0..<6).map { "gone before answer \($0)" }))
        #expect(try server.client.get("/api/rooms/left/messages?since=0").status == 200)
    }
}
