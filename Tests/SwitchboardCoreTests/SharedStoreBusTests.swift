import Synchronization
import Foundation
import Testing
import SwitchboardTesting
@testable import SwitchboardCore

/// Two buses on one store stand for two nodes on one database: what one
/// commits, the other reads by id (``MessageBus/ingest()``), and a bus's own
/// commit never lets its ring skip what the other committed first.
@Suite("Message bus on a shared store")
struct SharedStoreBusTests {
    func draft(_ text: String, room: String = "lobby") -> MessageDraft {
        MessageDraft(room: room, user: "u", text: text, kind: .message)
    }

    /// Reads everything a subscriber at `cursor` would get from `bus`, ring and store.
    func readAll(_ bus: MessageBus, after cursor: Int64) throws -> [Int64] {
        var cursor = cursor, seen: [Int64] = []
        while true {
            let read = try bus.read(after: cursor, in: .all, access: .everything, limit: 100)
            if read.messages.isEmpty { return seen }
            seen += read.messages.map(\.id)
            cursor = read.scannedThrough
        }
    }

    @Test func ingestBringsInWhatTheOtherNodeCommittedAndWakesItsSubscribers() throws {
        let store = InMemoryMessageStore()
        let a = try MessageBus(store: store), b = try MessageBus(store: store)
        let waiter = CountingSubscriber()
        guard case .parked = try b.readOrPark(after: 0, in: .room("lobby"), limit: 10, for: waiter, park: {}) else {
            Issue.record("expected to park"); return
        }
        try a.publishAndWait(draft("one"))
        try a.publishAndWait(draft("two"))
        #expect(waiter.count == 0, "nothing reaches B until it reads")
        #expect(try b.ingest() == 2)
        #expect(waiter.count == 1)
        #expect(b.lastID == 2)
        #expect(try readAll(b, after: 0) == [1, 2])
        #expect(try b.ingest() == 0, "a second ingest finds nothing new")
    }

    @Test func ingestTellsItsObserversHowManyCameInAndOnlyWhenSomeDid() throws {
        let store = InMemoryMessageStore()
        let a = try MessageBus(store: store), b = try MessageBus(store: store)
        let told = Mutex<[Int]>([])
        b.observeIngests { count in told.withLock { $0.append(count) } }
        let ownCommits = Mutex(0)
        b.observeCommits { _ in ownCommits.withLock { $0 += 1 } }
        try a.publishAndWait(draft("one"))
        try a.publishAndWait(draft("two"))
        try b.ingest()
        try b.ingest()
        #expect(told.withLock { $0 } == [2], "one call for the two messages; none for an ingest that found nothing")
        #expect(ownCommits.withLock { $0 } == 0, "another node's messages are not this node's commits")
        try b.publishAndWait(draft("B's own"))
        #expect(told.withLock { $0 } == [2], "B's own commit is not an ingest")
        #expect(ownCommits.withLock { $0 } == 1)
    }

    @Test func aCommitAfterTheOtherNodesFillsTheRingInOrderFirst() throws {
        let store = InMemoryMessageStore()
        let a = try MessageBus(store: store), b = try MessageBus(store: store)
        try a.publishAndWait(draft("from A, 1"))
        try a.publishAndWait(draft("from A, 2"))
        // B commits without having heard of A's messages: its own gets id 3,
        // and its ring must hold 1 and 2 before it, or a subscriber reading
        // B's ring after 0 would jump to 3 and skip them for ever.
        let own = try b.publishAndWait(draft("from B"))
        #expect(own.id == 3)
        #expect(try readAll(b, after: 0) == [1, 2, 3])
        #expect(b.lastID == 3)
    }

    @Test func aTombstoneFromTheOtherNodeHidesTheMessageHere() throws {
        let store = InMemoryMessageStore()
        let a = try MessageBus(store: store), b = try MessageBus(store: store)
        let doomed = try a.publishAndWait(draft("doomed"))
        try b.ingest()
        #expect(try readAll(b, after: 0) == [doomed.id])
        try a.deleteAndWait(id: doomed.id)
        try b.ingest()
        let texts = try b.read(after: 0, in: .all, access: .everything, limit: 10).messages.map(\.message.kind)
        #expect(texts == [.delete], "B's ring no longer serves the deleted message")
    }

    @Test func aPresenceChangeTheStoreDoesNotAnnounceIsNilNotAnError() throws {
        let store = InMemoryMessageStore()
        store.keeps.withLock { $0 = { $0.kind != .join } }  // the user is present on another node
        let bus = try MessageBus(store: store)
        let join = PresenceChange(room: "lobby", user: "ann", kind: .join, transport: .tcp).draft
        #expect(try bus.announceAndWait(join) == nil)
        #expect(throws: SwitchboardError.self) { try bus.publishAndWait(join) }
        let presence = Presence(bus: bus)
        let announced = Mutex<Bool?>(nil)
        presence.connect(user: "ann", room: "lobby", transport: .tcp) { result in announced.withLock { $0 = result } }
        bus.waitForQueuedCommits(seconds: 5)
        #expect(announced.withLock { $0 } == false, "present on another node: no join was published here")
    }
}
