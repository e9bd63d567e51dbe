import Foundation
import Synchronization
import Testing
import SwitchboardTesting
@testable import SwitchboardCore

/// Counts wake-ups; stands for a suspended connection.
final class CountingSubscriber: Subscriber, @unchecked Sendable {
        let access = RoomAccess.everything
    let transport = Transport.sse
    let parkingSpot = ParkingSpot()
    let filter = RoomFilter.all
    var cursor: Int64 = 0
    func deliver(_ batch: MessageBatch) -> Bool { false }
    let wakes = Atomic<Int>(0)
    func wake() { wakes.add(1, ordering: .relaxed) }
    var count: Int { wakes.load(ordering: .relaxed) }
}

@Suite("Message bus")
struct MessageBusTests {
    func draft(_ text: String, room: String = "lobby") -> MessageDraft {
        MessageDraft(room: room, user: "u", text: text, kind: .message)
    }

    @Test func publishStoresAssignsIdsAndWakesOnlyThatRoomsWaiters() throws {
        let store = InMemoryMessageStore()
        let bus = try MessageBus(store: store, clock: { 1000 })
        let lobby = CountingSubscriber(), other = CountingSubscriber(), everywhere = CountingSubscriber()
        var parks = 0
        for (waiter, filter) in [(lobby, RoomFilter.room("lobby")), (other, .room("other")), (everywhere, .all)] {
            guard case .parked = try bus.readOrPark(after: 0, in: filter, limit: 10, for: waiter, park: { parks += 1 }) else {
                Issue.record("expected to park"); return
            }
        }
        #expect(parks == 3)
        let published = try bus.publishAndWait(draft("hi"))
        #expect(published.message == Message(id: 1, room: "lobby", user: "u", text: "hi", kind: .message, ts: 1000))
        #expect(lobby.count == 1 && everywhere.count == 1 && other.count == 0)
        #expect(bus.parkedCount == 1)
        // A waiter is woken once per park, not once per message.
        try bus.publishAndWait(draft("again"))
        #expect(lobby.count == 1)
    }

    @Test func readAfterCursorComesFromTheRingOrTheStoreSeamlessly() throws {
        let store = InMemoryMessageStore()
        let bus = try MessageBus(store: store, recentCapacity: 3)
        for index in 1...10 { try bus.publishAndWait(draft("m\(index)", room: index % 2 == 0 ? "lobby" : "other")) }
        // Cursor 0 is behind the ring (which holds 8...10): first the store, then the ring.
        var cursor: Int64 = 0
        var seen: [Int64] = []
        while true {
            let read = try bus.read(after: cursor, in: .room("lobby"), access: .everything, limit: 2)
            if read.messages.isEmpty { break }
            seen += read.messages.map(\.id)
            cursor = read.scannedThrough
        }
        #expect(seen == [2, 4, 6, 8, 10])
    }

    @Test func aMessagePublishedDuringACatchUpReadIsDeliveredExactlyOnce() throws {
        let store = InMemoryMessageStore()
        let bus = try MessageBus(store: store, recentCapacity: 2)
        for index in 1...5 { try bus.publishAndWait(draft("old \(index)")) }
        // While the reader is in the store, another message is published.
        store.onRead.withLock { hook in
            hook = { [bus] in
                store.onRead.withLock { $0 = nil }
                _ = try? bus.publishAndWait(MessageDraft(room: "lobby", user: "u", text: "racing", kind: .message))
            }
        }
        let waiter = CountingSubscriber()
        var cursor: Int64 = 0
        var seen: [Int64] = []
        loop: while true {
            switch try bus.readOrPark(after: cursor, in: .room("lobby"), limit: 100, for: waiter, park: {}) {
            case .messages(let messages, let scanned):
                seen += messages.map(\.id)
                cursor = scanned
            case .parked, .fetching, .closed, .cancelled, .interrupted:
                break loop
            }
        }
        #expect(seen == [1, 2, 3, 4, 5, 6])
    }

    @Test func concurrentPublishersAndReadersSeeEveryIdOnceInOrder() throws {
        let bus = try MessageBus(store: InMemoryMessageStore(), recentCapacity: 8)
        let total = 2000
        let results = Mutex<[[Int64]]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            if worker < 4 {
                for index in 0..<(total / 4) { _ = try? bus.publishAndWait(MessageDraft(room: "lobby", user: "u", text: "\(index)", kind: .message)) }
                return
            }
            var cursor: Int64 = 0
            var seen: [Int64] = []
            while seen.count < total {
                guard let read = try? bus.read(after: cursor, in: .all, access: .everything, limit: 7) else { return }
                seen += read.messages.map(\.id)
                cursor = read.scannedThrough
            }
            results.withLock { $0.append(seen) }
        }
        let all = results.withLock { $0 }
        #expect(all.count == 4)
        for seen in all { #expect(seen == Array(1...Int64(total))) }
    }

    @Test func idsContinueFromTheStoreAfterARestart() throws {
        let store = InMemoryMessageStore(messages: [Message(id: 41, room: "lobby", user: "u", text: "x", kind: .message, ts: 0)])
        let bus = try MessageBus(store: store)
        #expect(bus.lastID == 41)
        #expect(try bus.publishAndWait(draft("next")).id == 42)
        #expect(try bus.read(after: 0, in: .all, access: .everything, limit: 10).messages.map(\.id) == [41, 42])
    }

    @Test func closeWakesEveryoneAndRefusesPublishesAndParks() throws {
        let bus = try MessageBus(store: InMemoryMessageStore())
        let waiter = CountingSubscriber()
        _ = try bus.readOrPark(after: 0, in: .all, limit: 1, for: waiter, park: {})
        bus.close()
        #expect(waiter.count == 1)
        #expect(throws: SwitchboardError.shuttingDown) { try bus.publishAndWait(draft("late")) }
        guard case .closed = try bus.readOrPark(after: 0, in: .all, limit: 1, for: waiter, park: {}) else {
            Issue.record("parked after close"); return
        }
    }

    @Test func unparkTakesAWaiterOutOnce() throws {
        let bus = try MessageBus(store: InMemoryMessageStore())
        let waiter = CountingSubscriber()
        _ = try bus.readOrPark(after: 0, in: .rooms(["a", "b"]), limit: 1, for: waiter, park: {})
        #expect(bus.unpark(waiter))
        #expect(!bus.unpark(waiter))
        try bus.publishAndWait(draft("x", room: "a"))
        #expect(waiter.count == 0)
    }

    @Test func whileParkedRunsOnlyForAParkedWaiterAndLeavesItParked() throws {
        let bus = try MessageBus(store: InMemoryMessageStore())
        let waiter = CountingSubscriber()
        var runs = 0
        #expect(!bus.whileParked(waiter) { runs += 1 })
        _ = try bus.readOrPark(after: 0, in: .rooms(["a"]), limit: 1, for: waiter, park: {})
        #expect(bus.whileParked(waiter) { runs += 1 })
        #expect(runs == 1 && bus.parkedCount == 1)
        // Still parked: the next message wakes it.
        try bus.publishAndWait(draft("x", room: "a"))
        #expect(waiter.count == 1)
        #expect(!bus.whileParked(waiter) { runs += 1 })
        #expect(runs == 1)
    }
}

@Suite("Cancelling a waiter")
struct CancellationTests {
    final class CancellableSubscriber: Subscriber, @unchecked Sendable {
        let access = RoomAccess.everything
        let transport = Transport.sse
        let parkingSpot = ParkingSpot()
        let filter = RoomFilter.all
        var cursor: Int64 = 0
        func deliver(_ batch: MessageBatch) -> Bool { false }
        let cancelled = Atomic<Bool>(false)
        let wakes = Atomic<Int>(0)
        func wake() { wakes.add(1, ordering: .relaxed) }
        var isCancelled: Bool { cancelled.load(ordering: .acquiring) }
    }

    @Test func aCancelledWaiterIsNeverParkedSoACancelThatRacesAParkIsNotLost() throws {
        let bus = try MessageBus(store: InMemoryMessageStore())
        let waiter = CancellableSubscriber()
        // The cancel comes first and finds nothing parked...
        waiter.cancelled.store(true, ordering: .releasing)
        bus.cancel(waiter)
        #expect(waiter.wakes.load(ordering: .relaxed) == 0)
        // ...and the park that follows is refused instead of waiting forever.
        var parks = 0
        guard case .cancelled = try bus.readOrPark(after: 0, in: .all, limit: 1, for: waiter, park: { parks += 1 }) else {
            Issue.record("a cancelled waiter was parked"); return
        }
        #expect(parks == 0 && bus.parkedCount == 0)
    }

    @Test func cancellingAParkedWaiterWakesItOnce() throws {
        let bus = try MessageBus(store: InMemoryMessageStore())
        let waiter = CancellableSubscriber()
        _ = try bus.readOrPark(after: 0, in: .all, limit: 1, for: waiter, park: {})
        waiter.cancelled.store(true, ordering: .releasing)
        bus.cancel(waiter)
        bus.cancel(waiter)
        #expect(waiter.wakes.load(ordering: .relaxed) == 1)
        #expect(bus.parkedCount == 0)
    }
}
