import Testing
@testable import SwitchboardCore

@Suite("Parked subscribers, indexed by room")
struct ParkedSubscribersTests {
    private static func message(in room: String) -> EncodedMessage {
        EncodedMessage(Message(id: 1, room: room, user: "u", text: "t", kind: .message, ts: 0))
    }

    private func ids(_ subscribers: [any Subscriber]) -> Set<ObjectIdentifier> {
        Set(subscribers.map { ObjectIdentifier($0) })
    }

    @Test func aRoomsPublishTakesItsOwnSeveralRoomAndAllRoomSubscribersOnce() {
        var parked = ParkedSubscribers()
        let inA = RecordingSubscriber(filter: .room("a"))
        let inB = RecordingSubscriber(filter: .room("b"))
        let inBoth = RecordingSubscriber(filter: .rooms(["a", "b"]))
        let everywhere = RecordingSubscriber(filter: .all)
        for subscriber in [inA, inB, inBoth, everywhere] { parked.insert(subscriber, filter: subscriber.filter) }

        var woken: [any Subscriber] = []
        parked.removeAll(interestedIn: Self.message(in: "a"), into: &woken)
        #expect(woken.count == 3)
        #expect(ids(woken) == ids([inA, inBoth, everywhere]))
        #expect(parked.count == 1)

        // The several-room subscriber left room b's index too: not taken twice.
        var second: [any Subscriber] = []
        parked.removeAll(interestedIn: Self.message(in: "b"), into: &second)
        #expect(ids(second) == ids([inB]))
        #expect(parked.count == 0)

        var none: [any Subscriber] = []
        parked.removeAll(interestedIn: Self.message(in: "a"), into: &none)
        parked.removeAll(interestedIn: Self.message(in: "b"), into: &none)
        #expect(none.isEmpty)
    }

    /// A publish's emptied room index is kept (with its capacity) for the
    /// next room to fill: it must come empty, whichever room takes it.
    @Test func aRoomIndexEmptiedByAPublishServesTheNextRoomEmpty() {
        var parked = ParkedSubscribers()
        let many = (0..<40).map { _ in RecordingSubscriber(filter: .room("a")) }
        for subscriber in many { parked.insert(subscriber, filter: subscriber.filter) }
        var woken: [any Subscriber] = []
        parked.removeAll(interestedIn: Self.message(in: "a"), into: &woken)
        #expect(woken.count == 40 && parked.count == 0)

        let inB = RecordingSubscriber(filter: .room("b"))
        parked.insert(inB, filter: inB.filter)  // takes the spare
        var none: [any Subscriber] = []
        parked.removeAll(interestedIn: Self.message(in: "a"), into: &none)
        #expect(none.isEmpty)
        var second: [any Subscriber] = []
        parked.removeAll(interestedIn: Self.message(in: "b"), into: &second)
        #expect(ids(second) == ids([inB]) && parked.count == 0)

        // The first room's subscribers park again, and are all woken once.
        for subscriber in many { parked.insert(subscriber, filter: subscriber.filter) }
        var again: [any Subscriber] = []
        parked.removeAll(interestedIn: Self.message(in: "a"), into: &again)
        #expect(ids(again) == ids(many) && again.count == 40)
    }

    @Test func parkingAgainForAnotherRoomLeavesNoStaleEntry() {
        var parked = ParkedSubscribers()
        let subscriber = RecordingSubscriber(filter: .room("a"))
        parked.insert(subscriber, filter: .rooms(["a", "c"]))
        parked.insert(subscriber, filter: .room("b"))
        var woken: [any Subscriber] = []
        parked.removeAll(interestedIn: Self.message(in: "a"), into: &woken)
        parked.removeAll(interestedIn: Self.message(in: "c"), into: &woken)
        #expect(woken.isEmpty)
        parked.removeAll(interestedIn: Self.message(in: "b"), into: &woken)
        #expect(ids(woken) == ids([subscriber]))
        #expect(parked.count == 0)
    }

    @Test func aSubscriberTakenOutIsNotWokenByItsRoom() {
        var parked = ParkedSubscribers()
        let stays = RecordingSubscriber(filter: .room("a"))
        let leaves = RecordingSubscriber(filter: .rooms(["a", "b"]))
        parked.insert(stays, filter: stays.filter)
        parked.insert(leaves, filter: leaves.filter)
        #expect(parked.remove(leaves) != nil)
        #expect(parked.remove(leaves) == nil)
        var woken: [any Subscriber] = []
        parked.removeAll(interestedIn: Self.message(in: "a"), into: &woken)
        parked.removeAll(interestedIn: Self.message(in: "b"), into: &woken)
        #expect(ids(woken) == ids([stays]))
    }
}
