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

    /// A long poll that times out leaves its room: a room nobody waits for
    /// keeps no index (polls for made-up room names leave nothing behind).
    @Test func aRoomWhoseWaitersAllLeftKeepsNoIndex() {
        var parked = ParkedSubscribers()
        let polls = (0..<100).map { RecordingSubscriber(filter: .room("made-up-\($0)")) }
        let several = RecordingSubscriber(filter: .rooms(["x", "y"]))
        for subscriber in polls + [several] { parked.insert(subscriber, filter: subscriber.filter) }
        #expect(parked.indexedRooms == 102)
        for subscriber in polls + [several] { #expect(parked.remove(subscriber) != nil) }
        #expect(parked.indexedRooms == 0 && parked.count == 0)
    }

    /// A new subscriber parks in the index found last when its room is that
    /// index's, never in one dropped since: one parked in a room whose
    /// index was dropped (everyone left) is in the new index, and woken.
    @Test func aNewSubscriberParksInTheRoomsCurrentIndex() {
        var parked = ParkedSubscribers()
        let left = RecordingSubscriber(filter: .room("x"))
        parked.insert(left, filter: left.filter)
        #expect(parked.remove(left) != nil)
        #expect(parked.indexedRooms == 0)

        let inX = RecordingSubscriber(filter: .room("x"))
        let inY = RecordingSubscriber(filter: .room("y"))
        let alsoInX = RecordingSubscriber(filter: .room("x"))
        for subscriber in [inX, inY, alsoInX] { parked.insert(subscriber, filter: subscriber.filter) }
        #expect(parked.indexedRooms == 2)
        var woken: [any Subscriber] = []
        parked.removeAll(interestedIn: Self.message(in: "x"), into: &woken)
        #expect(ids(woken) == ids([inX, alsoInX]) && woken.count == 2)
        var second: [any Subscriber] = []
        parked.removeAll(interestedIn: Self.message(in: "y"), into: &second)
        #expect(ids(second) == ids([inY]) && parked.count == 0)
    }

    /// A subscriber taken out and parked again, over and over, in a room
    /// where another waits the while: the stale entries are dropped as the
    /// index would grow, and each is woken once.
    @Test func staleEntriesAreDroppedAndEveryoneIsWokenOnce() {
        var parked = ParkedSubscribers()
        let waits = RecordingSubscriber(filter: .room("a"))
        let comesAndGoes = RecordingSubscriber(filter: .room("a"))
        parked.insert(waits, filter: waits.filter)
        for _ in 0..<1_000 {
            parked.insert(comesAndGoes, filter: comesAndGoes.filter)
            #expect(parked.remove(comesAndGoes) != nil)
        }
        parked.insert(comesAndGoes, filter: comesAndGoes.filter)
        #expect(parked.entriesHeld(in: "a") <= 16)
        #expect(parked.count == 2)
        var woken: [any Subscriber] = []
        parked.removeAll(interestedIn: Self.message(in: "a"), into: &woken)
        #expect(woken.count == 2 && ids(woken) == ids([waits, comesAndGoes]))
        #expect(parked.count == 0)
    }

    /// Parked twice without being woken (the same room, then several):
    /// in the index once, woken once.
    @Test func parkingTwiceCountsOnceAndWakesOnce() {
        var parked = ParkedSubscribers()
        let subscriber = RecordingSubscriber(filter: .room("a"))
        parked.insert(subscriber, filter: .room("a"))
        parked.insert(subscriber, filter: .room("a"))
        parked.insert(subscriber, filter: .rooms(["a", "b"]))
        #expect(parked.count == 1)
        var woken: [any Subscriber] = []
        parked.removeAll(interestedIn: Self.message(in: "a"), into: &woken)
        parked.removeAll(interestedIn: Self.message(in: "b"), into: &woken)
        #expect(woken.count == 1 && parked.count == 0)
        #expect(parked.indexedRooms <= 1)  // room a's, kept for its subscribers' next park; b's dropped
    }

    /// A conversation's message wakes the every-room readers who may see
    /// it; the others stay parked for the next message they may see.
    @Test func aPrivateMessageWakesOnlyTheEveryRoomReadersWhoSeeIt() {
        var parked = ParkedSubscribers()
        let sees = RecordingSubscriber(filter: .all, access: .everything)
        let publicOnly = RecordingSubscriber(filter: .all, access: .publicRooms)
        parked.insert(sees, filter: .all)
        parked.insert(publicOnly, filter: .all)
        var woken: [any Subscriber] = []
        parked.removeAll(interestedIn: Self.message(in: "c.7"), into: &woken)
        #expect(ids(woken) == ids([sees]) && parked.count == 1)
        var next: [any Subscriber] = []
        parked.removeAll(interestedIn: Self.message(in: "lobby"), into: &next)
        #expect(ids(next) == ids([publicOnly]) && parked.count == 0)
    }

    /// Taking out by a predicate (kicks, the shutdown) takes a several-room
    /// subscriber once, and leaves no index behind.
    @Test func takingOutByAPredicateTakesEachOnce() {
        var parked = ParkedSubscribers()
        let several = RecordingSubscriber(filter: .rooms(["a", "b", "c"]))
        let one = RecordingSubscriber(filter: .room("a"))
        let everywhere = RecordingSubscriber(filter: .all)
        for subscriber in [several, one, everywhere] { parked.insert(subscriber, filter: subscriber.filter) }
        let taken = parked.removeAll(where: { _ in true })
        #expect(taken.count == 3 && ids(taken) == ids([several, one, everywhere]))
        #expect(parked.count == 0 && parked.indexedRooms == 0)
    }
}
