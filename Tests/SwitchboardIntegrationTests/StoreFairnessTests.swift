import Dispatch
import Foundation
import Synchronization
import Testing
import SwitchboardCore
import SwitchboardLoad
import SwitchboardTesting

/// One client's flood of store reads waits behind itself: the store gate
/// takes queued work caller by caller in turns, so another client's read
/// is served after at most one more of the flood's, not after all of them.
/// (Before, the gate was one queue: 256 connections from one address asking
/// pages of 1,000 messages held every other client's history read 280–530
/// ms, p50; in turns, 7.7 ms.)
@Suite("Store gate: callers in turns")
struct StoreFairnessTests {
    /// A store whose history pages wait until released, one at a time, and
    /// which records whose line (``StoreCaller``) each was read for.
    final class HeldPagesStore: ForwardingMessageStore, @unchecked Sendable {
        let inner = InMemoryMessageStore()
        private let readers = Mutex<[UInt64]>([])
        private let release = DispatchSemaphore(value: 0)

        func messages(in room: String, before id: Int64, limit: Int) throws -> [Message] {
            readers.withLock { $0.append(StoreCaller.current.lane) }
            release.wait()
            return try inner.messages(in: room, before: id, limit: limit)
        }

        /// Whose each page read was, in the order the store was asked.
        var served: [UInt64] { readers.withLock { $0 } }
        func releaseOne() { release.signal() }

        /// Waits until `count` reads have been asked for and no more come for a while.
        func waitForReads(_ count: Int) -> Int {
            var seen = -1, steadySince = Date()
            let end = Date().addingTimeInterval(10)
            while Date() < end {
                let now = served.count
                if now != seen { (seen, steadySince) = (now, Date()) }
                if now >= count, Date().timeIntervalSince(steadySince) > 0.3 { break }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return served.count
        }
    }

    @Test func anotherAddressIsServedBeforeTheRestOfOneAddressesFlood() throws {
        let store = HeldPagesStore()
        let server = try TestServer(store: store, storeTimeoutSeconds: 30)
        for text in ["one", "two", "three", "four"] { _ = try server.client.publish(text: text) }
        let (page, port) = ("/api/rooms/lobby/messages?before=4&limit=2", server.port)
        let statuses = Mutex<[String: [Int]]>([:])
        let answered = DispatchGroup()
        /// Asks for a page from `source` on a thread of its own, and records the answer's status.
        func ask(from source: String) {
            answered.enter()
            Thread.detachNewThread {
                defer { answered.leave() }
                let status = (try? { () throws -> Int in
                    let connection = try TestHTTPConnection(port: port, timeoutSeconds: 30, from: source)
                    defer { connection.close() }
                    try connection.sendRequest("GET", page, headers: [("Connection", "close")])
                    return try connection.readResponse(method: "GET").status
                }()) ?? -1
                statuses.withLock { $0[source, default: []].append(status) }
            }
        }
        // The flood: more pages than the gate has threads, from 127.0.0.1.
        let flood = 20
        for _ in 0..<flood { ask(from: "127.0.0.1") }
        // Every gate thread is held in a read; the rest of the flood is queued behind them.
        let running = store.waitForReads(1)
        #expect(running >= 1 && running < flood, "the gate's threads: \(running)")
        Thread.sleep(forTimeInterval: 0.3)
        ask(from: "127.0.0.2")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(store.served.count == running, "nothing ran while every thread was held")
        // Released one at a time, each freed thread takes the next caller's turn.
        for expected in running..<(flood + 1) {
            store.releaseOne()
            #expect(store.waitForReads(expected + 1) == expected + 1)
        }
        for _ in 0..<running { store.releaseOne() }
        #expect(answered.wait(timeout: .now() + 30) == .success)
        #expect(statuses.withLock { $0 } == ["127.0.0.1": Array(repeating: 200, count: flood), "127.0.0.2": [200]])

        let served = store.served
        let lines = Dictionary(grouping: served.indices, by: { served[$0] })
        #expect(lines.count == 2, "one line per address: \(lines.mapValues(\.count))")
        let other = try #require(lines.values.first { $0.count == 1 }?.first)
        // Queued: the flood's line first, then the other's. Its turn comes second.
        #expect(other == running + 1, "the other address's read was read \(other + 1)th of \(served.count), \(running) running at first")
    }

    /// A store that records whose line each read of messages after an id was for.
    final class RecordingStore: ForwardingMessageStore, @unchecked Sendable {
        let inner = InMemoryMessageStore()
        private let readers = Mutex<[UInt64]>([])

        func messages(after id: Int64, in filter: RoomFilter, limit: Int) throws -> StoreBatch {
            readers.withLock { $0.append(StoreCaller.current.lane) }
            return try inner.messages(after: id, in: filter, limit: limit)
        }

        var served: [UInt64] { readers.withLock { $0 } }
    }

    /// WebSocket's frames and raw TCP's lines name their caller as HTTP's
    /// requests do: an act's read of its message is the signed-in user's
    /// line, a guest's `since:` replay its address's.
    @Test func webSocketAndRawTCPQueueTheirReadsForTheirCaller() throws {
        let store = RecordingStore()
        let server = try TestServer(recentMessages: 1, store: store)
        let leiaToken = try IdentityTestSupport.signUp(server.client, "leia")
        let leia = try TestWebSocketClient(port: server.port, path: "/api/rooms/lobby/ws?access_token=\(leiaToken)")
        try leia.sendText(#"{"text":"dinner at eight","ref":1}"#)
        var said: Int?
        while said == nil { let frame = try leia.readJSON(); if frame["ack"] as? Int == 1 { said = frame["id"] as? Int } }
        // Older than what the bus keeps in memory: the edit reads its message from the store.
        for index in 0..<3 { _ = try server.client.publish(text: "later \(index)") }
        let before = store.served.count
        try leia.sendText(#"{"edit":\#(said!),"text":"dinner at nine","ref":2}"#)
        while try leia.readJSON()["ack"] as? Int != 2 {}
        #expect(store.served[before...].contains(StoreCaller.user("leia").lane), "the edit's read: \(store.served[before...])")

        let tcp = try TestLineClient(port: server.tcpPort)
        let fromTCP = store.served.count
        try tcp.write("since:0\n")
        _ = try tcp.readUntil { $0.hasSuffix(":later 2") }
        #expect(store.served[fromTCP...].contains(StoreCaller.address(text: "127.0.0.1").lane), "the replay: \(store.served[fromTCP...])")
    }
}
