import Synchronization
import Testing
import SwitchboardTesting
@testable import SwitchboardCore

/// A subscriber that records batches; takes `perCall` batches per pump.
final class RecordingSubscriber: Subscriber, @unchecked Sendable {
    let access: RoomAccess
    let transport: Transport
    let parkingSpot = ParkingSpot()
    let filter: RoomFilter
    var cursor: Int64
    var batches: [[Int64]] = []
    var acceptMore = true
    let wakes = Atomic<Int>(0)

    init(transport: Transport = .tcp, filter: RoomFilter, cursor: Int64 = 0, access: RoomAccess = .everything) {
        self.transport = transport
        self.filter = filter
        self.cursor = cursor
        self.access = access
    }

    func deliver(_ batch: MessageBatch) -> Bool {
        batches.append(batch.map(\.id))
        return acceptMore
    }

    func wake() { wakes.add(1, ordering: .relaxed) }
}

@Suite("The bus's pump")
struct PumpTests {
    func draft(_ text: String, room: String = "lobby") -> MessageDraft {
        MessageDraft(room: room, user: "u", text: text, kind: .message)
    }

    @Test func readsDeliversCountsAdvancesThenParks() throws {
        let bus = try MessageBus(store: InMemoryMessageStore())
        for index in 0..<5 { try bus.publishAndWait(draft("m\(index)", room: index == 2 ? "other" : "lobby")) }
        let subscriber = RecordingSubscriber(filter: .room("lobby"))
        var parks = 0
        #expect(try bus.pump(subscriber, limit: 2, park: { parks += 1 }) == .parked)
        #expect(subscriber.batches == [[1, 2], [4, 5]])
        #expect(subscriber.cursor == 5)
        #expect(parks == 1 && bus.parkedCount == 1)
        #expect(bus.stats.figures()[.tcp]?.delivered == 4)
        // A publish in the room wakes it once; the next pump delivers only the new message.
        try bus.publishAndWait(draft("live"))
        #expect(subscriber.wakes.load(ordering: .relaxed) == 1)
        #expect(try bus.pump(subscriber, limit: 2, park: { parks += 1 }) == .parked)
        #expect(subscriber.batches.last == [6])
    }

    /// What a stream that has had its turn asks: park if nothing new is
    /// there for it (other rooms' messages and ones it may not see are not
    /// new), else take nothing and leave it for its next pump.
    @Test func parkIfNothingNewParksOnlyWhenNothingItSeesIsNew() throws {
        let bus = try MessageBus(store: InMemoryMessageStore())
        try bus.publishAndWait(draft("first"))
        let subscriber = RecordingSubscriber(filter: .room("lobby"), cursor: 1)
        var parks = 0
        try bus.publishAndWait(draft("elsewhere", room: "other"))
        #expect(bus.parkIfNothingNew(subscriber, park: { parks += 1 }))
        #expect(parks == 1 && bus.parkedCount == 1 && subscriber.batches.isEmpty)
        try bus.publishAndWait(draft("second"))
        #expect(subscriber.wakes.load(ordering: .relaxed) == 1, "parked like any other: a publish in its room wakes it")
        // Woken, not pumped yet: something is new, and nothing is taken or parked.
        #expect(!bus.parkIfNothingNew(subscriber, park: { parks += 1 }))
        #expect(parks == 1 && bus.parkedCount == 0 && subscriber.batches.isEmpty && subscriber.cursor == 1)
        #expect(try bus.pump(subscriber, park: { parks += 1 }) == .parked)
        #expect(subscriber.batches == [[3]])
        bus.close()
        #expect(!bus.parkIfNothingNew(subscriber, park: { parks += 1 }), "a closed bus parks nobody")
    }

    /// A pump that does not park (a WebSocket's last drain after its
    /// reader was removed, a long poll past its deadline, a short poll) reads
    /// with the subscriber's access like any other: it read with the admin's,
    /// and a removed member's WebSocket got the next message of the
    /// conversation before its close (ConversationTests, once, under load).
    @Test func aPumpThatDoesNotParkReadsWithTheSubscribersAccess() throws {
        let directory = ConversationDirectory()
        let bus = try MessageBus(store: InMemoryMessageStore(), conversations: directory)
        let created = try bus.publishAndWait(ConversationEvent(type: .created, actor: "luke", title: "T", members: ["luke", "han"],
                                                               direct: false).draft(room: ConversationRoom.unnamed))
        let room = created.message.room
        let han = RecordingSubscriber(filter: .room(room), cursor: created.id, access: directory.access(forUser: "han"))
        let removal = try bus.publishAndWait(ConversationEvent(type: .removed, actor: "luke", user: "han").draft(room: room))
        _ = try bus.publishAndWait(MessageDraft(room: room, user: "luke", text: "after he left", kind: .message))
        #expect(try bus.pumpWithoutParking(han) == .empty)
        #expect(han.batches == [[removal.id]])
    }

    @Test func stopsWhereTheSubscriberAsksAndResumesFromItsCursor() throws {
        let bus = try MessageBus(store: InMemoryMessageStore())
        for index in 0..<4 { try bus.publishAndWait(draft("m\(index)")) }
        let subscriber = RecordingSubscriber(filter: .all)
        subscriber.acceptMore = false
        #expect(try bus.pump(subscriber, limit: 3, park: {}) == .delivered)
        #expect(subscriber.batches == [[1, 2, 3]] && subscriber.cursor == 3 && bus.parkedCount == 0)
        #expect(try bus.pump(subscriber, limit: 3, park: {}) == .delivered)
        #expect(subscriber.batches.last == [4])
    }

    @Test func withoutParkingNothingNewIsEmptyAndClosedIsClosed() throws {
        let bus = try MessageBus(store: InMemoryMessageStore())
        let subscriber = RecordingSubscriber(filter: .all)
        #expect(try bus.pumpWithoutParking(subscriber, limit: 10) == .empty)
        #expect(bus.parkedCount == 0)
        bus.close()
        #expect(try bus.pump(subscriber, limit: 10, park: {}) == .closed)
    }

    @Test func catchesUpFromTheStoreWhenTheCursorIsOlderThanTheRing() throws {
        let bus = try MessageBus(store: InMemoryMessageStore(), recentCapacity: 2)
        for index in 0..<6 { try bus.publishAndWait(draft("m\(index)")) }
        let subscriber = RecordingSubscriber(filter: .all)
        #expect(try bus.pump(subscriber, limit: 4, park: {}) == .parked)
        #expect(subscriber.batches.flatMap { $0 } == [1, 2, 3, 4, 5, 6])
    }

    @Test func readersCatchingUpFromTheStoreShareOneEncodingOfEachMessage() throws {
        let bus = try MessageBus(store: InMemoryMessageStore(), recentCapacity: 2)
        for index in 0..<6 { try bus.publishAndWait(draft("m\(index)")) }
        let first = try bus.read(after: 0, in: .all, access: .everything, limit: 3).messages
        let second = try bus.read(after: 0, in: .all, access: .everything, limit: 3).messages
        #expect(first.map(\.id) == [1, 2, 3])
        #expect(zip(first, second).allSatisfy { $0 === $1 })
    }
}
