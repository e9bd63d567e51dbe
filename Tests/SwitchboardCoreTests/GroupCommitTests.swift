import Dispatch
import Foundation
import Synchronization
import Testing
import SwitchboardTesting
@testable import SwitchboardCore

/// A store that counts its transactions and can be made slow or failing.
final class CountingStore: MessageStore, @unchecked Sendable {
    let inner = InMemoryMessageStore()
    let groups = Mutex<[Int]>([])
    let delay = Atomic<Int>(0)
    let failing = Atomic<Bool>(false)
    struct DiskFull: Error {}

    func append(_ drafts: [MessageDraft], timestamp: Int64) throws -> [Message] {
        usleep(UInt32(delay.load(ordering: .relaxed)))
        if failing.load(ordering: .relaxed) { throw DiskFull() }
        groups.withLock { $0.append(drafts.count) }
        return try inner.append(drafts, timestamp: timestamp)
    }
    func messages(after cursor: Int64, in filter: RoomFilter, limit: Int) throws -> StoreBatch {
        try inner.messages(after: cursor, in: filter, limit: limit)
    }
    func latest(in room: String, limit: Int) throws -> [Message] { try inner.latest(in: room, limit: limit) }
    func messages(in room: String, before id: Int64, limit: Int) throws -> [Message] {
        try inner.messages(in: room, before: id, limit: limit)
    }
    func delete(id: Int64) throws -> Message? { try inner.delete(id: id) }
    func replies(to id: Int64, in room: String, after cursor: Int64, limit: Int) throws -> [Message] {
        try inner.replies(to: id, in: room, after: cursor, limit: limit)
    }
    func lastAssignedID() throws -> Int64 { try inner.lastAssignedID() }
    func rooms() throws -> [RoomSummary] { try inner.rooms() }
    func checkWritable() throws {}
    func checkDurableWrite() throws {}
    func sizeInBytes() -> Int64 { 0 }
    func close() throws {}
}

@Suite("Group commit")
struct GroupCommitTests {
    @Test func publishesWaitingTogetherShareOneTransactionIdsInArrivalOrder() throws {
        let store = CountingStore()
        store.delay.store(50_000, ordering: .relaxed)  // a slow disk: 50 ms a transaction
        let bus = try MessageBus(store: store)
        let acked = Mutex<[(index: Int, id: Int64)]>([])
        let done = DispatchGroup()
        for index in 0..<40 {
            done.enter()
            bus.publish(MessageDraft(room: "r", user: "u", text: "m\(index)", kind: .message)) { result in
                if case .success(let message) = result { acked.withLock { $0.append((index, message.id)) } }
                done.leave()
            }
        }
        #expect(done.wait(timeout: .now() + 20) == .success)
        let results = acked.withLock { $0 }
        #expect(results.count == 40)
        // Submitted in index order from one thread: ids follow it.
        #expect(results.sorted { $0.index < $1.index }.map(\.id) == Array(1...40))
        let groups = store.groups.withLock { $0 }
        #expect(groups.reduce(0, +) == 40)
        #expect(groups.count < 40, "the first commit runs alone; the rest wait and go together: \(groups)")
    }

    /// libmicrohttpd's loop defers: what it publishes in one pass waits for
    /// the pass's end and goes as one group; another thread is not held,
    /// and its publish takes the held ones along.
    @Test func aDeferringThreadsPublishesWaitForItsReleaseAndGoTogether() throws {
        let store = CountingStore()
        let bus = try MessageBus(store: store)
        let acked = Mutex(0)
        /// How many were acknowledged at each point the loop looked.
        let seen = Mutex<[Int]>([])
        @Sendable func publish(_ text: String) {
            bus.publish(MessageDraft(room: "r", user: "u", text: text, kind: .message)) { _ in acked.withLock { $0 += 1 } }
        }
        @Sendable func waitFor(_ count: Int) {
            let deadline = Date().addingTimeInterval(5)
            while acked.withLock({ $0 }) < count, Date() < deadline { usleep(1_000) }
        }
        let finished = DispatchSemaphore(value: 0)
        let loop = Thread {
            bus.deferCommitWakesOnThisThread()
            for index in 0..<5 { publish("pass \(index)") }
            usleep(100_000)
            seen.withLock { $0.append(acked.withLock { $0 }) }  // 0: held until the pass ends
            let elsewhere = Thread { publish("elsewhere") }
            elsewhere.start()
            waitFor(6)
            seen.withLock { $0.append(acked.withLock { $0 }) }  // 6: the other thread's publish took them along
            // The completions run before the commit thread looks at its queue
            // again: a publish queued in that window is taken by the running
            // drain, not held (correct, and what failed this test under
            // ThreadSanitizer's slowdown). Hold the next one from an idle queue.
            bus.waitForQueuedCommits(seconds: 5)
            publish("next pass")
            usleep(50_000)
            seen.withLock { $0.append(acked.withLock { $0 }) }  // 6: held again
            bus.releaseCommitWakes()
            waitFor(7)
            seen.withLock { $0.append(acked.withLock { $0 }) }  // 7: released at the pass's end
            publish("last")
            bus.endDeferringCommitWakes()
            waitFor(8)
            seen.withLock { $0.append(acked.withLock { $0 }) }  // 8: the end releases what is held
            finished.signal()
        }
        loop.start()
        #expect(finished.wait(timeout: .now() + 20) == .success)
        #expect(seen.withLock { $0 } == [0, 6, 6, 7, 8])
        #expect(store.groups.withLock { $0 } == [6, 1, 1], "the held pass in one group with the publish that woke the commit thread")
    }

    @Test func aFailedCommitRefusesEveryPublishInItAndTheNextOneWorks() throws {
        let store = CountingStore()
        let bus = try MessageBus(store: store)
        store.failing.store(true, ordering: .relaxed)
        #expect(throws: SwitchboardError.self) { try bus.publishAndWait(MessageDraft(room: "r", user: "u", text: "lost", kind: .message)) }
        store.failing.store(false, ordering: .relaxed)
        #expect(try bus.publishAndWait(MessageDraft(room: "r", user: "u", text: "kept", kind: .message)).id == 1)
        bus.close()
        #expect(throws: SwitchboardError.shuttingDown) { try bus.publishAndWait(MessageDraft(room: "r", user: "u", text: "late", kind: .message)) }
    }

    /// A publish answered at its deadline while it waited behind a slow
    /// commit is dropped from the next group, never stored; the publish
    /// queued with it is stored, under the next id, and answered with it.
    @Test func aPublishPastItsDeadlineIsDroppedFromItsGroupAndTheOthersAreStored() throws {
        let store = CountingStore()
        let bus = try MessageBus(store: store, gate: StoreGate(timeoutSeconds: 1))
        store.delay.store(2_000_000, ordering: .relaxed)  // the first commit takes 2 s
        let answers = Mutex<[String: Result<EncodedMessage, SwitchboardError>]>([:])
        let done = DispatchGroup()
        func publish(_ text: String) {
            done.enter()
            bus.publish(MessageDraft(room: "r", user: "u", text: text, kind: .message)) { result in
                answers.withLock { $0[text] = result }
                done.leave()
            }
        }
        publish("first")  // committing until 2 s; answered at its deadline (1 s), stored still
        usleep(50_000)
        publish("late")   // queued; its deadline (1.05 s) passes before the first commit ends
        usleep(1_450_000)
        store.delay.store(0, ordering: .relaxed)
        publish("next")   // queued beside it at 1.5 s, due at 2.5 s: stored in the next group at 2 s
        #expect(done.wait(timeout: .now() + 20) == .success)
        let all = answers.withLock { $0 }
        if case .failure(let error)? = all["late"] {
            #expect(error == .storeTimedOut(seconds: 1))
        } else {
            Issue.record("late was answered \(String(describing: all["late"]))")
        }
        guard case .success(let next)? = all["next"] else { Issue.record("next was answered \(String(describing: all["next"]))"); return }
        let stored = try store.inner.messages(after: 0, in: .all, limit: 10).messages
        #expect(stored.map(\.text) == ["first", "next"])
        #expect(next.id == stored.last?.id)
        #expect(store.groups.withLock { $0 } == [1, 1])
    }

    /// Joins as raw TCP clients make them: a thousand connections' serial
    /// queues, each announcing its user through `Presence`. Every join is committed and
    /// published once. (With 5,000 TCP clients and the event loops busy, a
    /// committer scheduled by the dispatch pool let 119 join in 60 s; on its
    /// own thread all 5,000 join in about 8 s. That stall needed the whole
    /// benchmark's load and is not reproduced here; this pins the path.)
    @Test func joinsFromAThousandConnectionQueuesAreEachCommittedOnce() throws {
        let store = CountingStore()
        let bus = try MessageBus(store: store)
        let presence = Presence(bus: bus)
        let done = DispatchGroup()
        for index in 0..<1000 {
            done.enter()
            DispatchQueue(label: "connection-\(index)").async {
                presence.connect(user: "u\(index)", room: "lobby", transport: .tcp)
                done.leave()
            }
        }
        #expect(done.wait(timeout: .now() + 60) == .success)
        bus.waitForQueuedCommits(seconds: 60)
        let joins = try bus.read(after: 0, in: .all, access: .everything, limit: 1000).messages.filter { $0.message.kind == .join }
        #expect(joins.count == 1000 && Set(joins.map(\.message.user)).count == 1000)
    }

    /// Presence queues its joins and leaves under its lock and never waits
    /// for them: joins from many connections at once share commits (with
    /// the lock held across each commit, 40 joins took 40 commits, and 5,000
    /// raw TCP clients took 7 s to join once every commit was synced), and
    /// one user's join and leave are still stored in that order.
    @Test func presenceChangesOfManyConnectionsShareCommitsInTheirOrder() throws {
        let store = CountingStore()
        store.delay.store(20_000, ordering: .relaxed)  // 20 ms a transaction
        let bus = try MessageBus(store: store)
        // The room exists (a room entered and left with nothing said keeps no join or leave).
        bus.publish(MessageDraft(room: "lobby", user: "host", text: "here", kind: .message)) { _ in }
        bus.waitForQueuedCommits(seconds: 10)
        store.groups.withLock { $0.removeAll() }
        let presence = Presence(bus: bus)
        let done = DispatchGroup()
        for index in 0..<40 {
            done.enter()
            DispatchQueue(label: "connection-\(index)").async {
                presence.connect(user: "u\(index)", room: "lobby", transport: .tcp)
                presence.disconnect(user: "u\(index)", room: "lobby", transport: .tcp)
                done.leave()
            }
        }
        #expect(done.wait(timeout: .now() + 60) == .success)
        bus.waitForQueuedCommits(seconds: 60)
        let stored = try bus.read(after: 1, in: .all, access: .everything, limit: 1000).messages.map(\.message)
        #expect(stored.count == 80)
        for index in 0..<40 {
            let mine = stored.filter { $0.user == "u\(index)" }
            #expect(mine.map(\.kind) == [.join, .leave])
        }
        let groups = store.groups.withLock { $0 }
        #expect(groups.reduce(0, +) == 80)
        #expect(groups.count < 40, "joins and leaves waiting together share commits: \(groups)")
    }

    /// Waiting for the queued commits (as a shutdown does, once its
    /// connections are closed) returns only when nothing is left: also what
    /// a completion queued while the wait was under way, as a raw TCP
    /// client's next line is queued from its previous line's completion.
    /// (Waiting behind a barrier returned with those still queued, and the
    /// event loops stopped under them: RawTCPHardeningTests'
    /// shutdownWaitsForEveryQueuedStore failed in CI.)
    @Test func waitingForQueuedCommitsAlsoWaitsForWhatTheirCompletionsQueue() throws {
        let store = CountingStore()
        store.delay.store(10_000, ordering: .relaxed)  // 10 ms a transaction
        let bus = try MessageBus(store: store)
        @Sendable func chain(_ left: Int) {
            bus.publish(MessageDraft(room: "lobby", user: "leia", text: "\(left)", kind: .message)) { _ in
                if left > 0 { chain(left - 1) }
            }
        }
        chain(5)
        bus.waitForQueuedCommits(seconds: 10)
        #expect(!bus.hasQueuedCommits)
        #expect(try bus.read(after: 0, in: .all, access: .everything, limit: 100).messages.count == 6)
    }
}
