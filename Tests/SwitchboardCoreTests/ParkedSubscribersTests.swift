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
