import Synchronization
import Testing
@testable import SwitchboardCore
import SwitchboardTesting

@Suite("Conversations in memory, and who sees what")
struct ConversationDirectoryTests {
    private func event(_ id: Int64, _ room: String, _ event: ConversationEvent) -> Message {
        Message(id: id, room: room, user: "system", text: event.text, kind: .system, ts: 0, event: event)
    }

    @Test func eventsChangeMembershipAndARemovedMemberSeesUpToTheRemoval() {
        let directory = ConversationDirectory()
        let han = directory.access(forUser: "han")
        _ = directory.apply(event(10, "c.10", ConversationEvent(type: .created, actor: "luke", title: "Trip",
                                                                members: ["luke", "Han"], direct: false)))
        #expect(directory.isMember("HAN", of: "c.10") && directory.rooms(of: "luke") == ["c.10"])
        #expect(han.sees(room: "c.10", id: 11) && han.isMember(of: "c.10"))

        let changes = directory.apply(event(20, "c.10", ConversationEvent(type: .removed, actor: "luke", user: "Han")))
        #expect(changes == [ConversationChange(room: "c.10", user: "Han", isMember: false)])
        #expect(!directory.isMember("han", of: "c.10") && directory.conversation("c.10")?.members == ["luke"])
        // The removal is the last message he sees there.
        #expect(han.sees(room: "c.10", id: 20) && !han.sees(room: "c.10", id: 21) && !han.isMember(of: "c.10"))

        _ = directory.apply(event(30, "c.10", ConversationEvent(type: .added, actor: "luke", user: "han")))
        #expect(han.sees(room: "c.10", id: 31))
        _ = directory.apply(event(40, "c.10", ConversationEvent(type: .renamed, actor: "han", title: "Endor")))
        #expect(directory.conversation("c.10")?.title == "Endor")
    }

    @Test func aDirectPairIsFoundInEitherOrderAndCase() {
        let directory = ConversationDirectory()
        _ = directory.apply(event(5, "c.5", ConversationEvent(type: .created, actor: "luke", members: ["luke", "leia"], direct: true)))
        #expect(directory.direct(between: "LEIA", and: "luke")?.room == "c.5")
        #expect(directory.direct(between: "luke", and: "han") == nil)
    }

    @Test func theAdminSeesEverythingAGuestNoConversation() {
        let directory = ConversationDirectory()
        let secret = EncodedMessage(Message(id: 1, room: "c.1", user: "luke", text: "psst", kind: .message, ts: 0))
        let public_ = EncodedMessage(Message(id: 2, room: "c", user: "luke", text: "hi", kind: .message, ts: 0))
        #expect(directory.access(for: .admin).sees(secret) && !directory.access(for: .guest).sees(secret))
        #expect(directory.access(for: .guest).sees(public_) && !public_.isPrivate && secret.isPrivate)
    }

    @Test func theBusAppliesEventsAsTheyEnterTheRingAndReadsHonourThem() throws {
        let directory = ConversationDirectory()
        let bus = try MessageBus(store: InMemoryMessageStore(), conversations: directory)
        let han = directory.access(forUser: "han")  // his stream's, open all along
        let created = try bus.publishAndWait(ConversationEvent(type: .created, actor: "luke", title: "T", members: ["luke", "han"],
                                                               direct: false).draft(room: ConversationRoom.unnamed))
        let room = created.message.room
        #expect(room == "c.\(created.id)" && directory.isMember("han", of: room))
        _ = try bus.publishAndWait(MessageDraft(room: room, user: "luke", text: "one", kind: .message))
        _ = try bus.publishAndWait(ConversationEvent(type: .removed, actor: "luke", user: "han").draft(room: room))
        _ = try bus.publishAndWait(MessageDraft(room: room, user: "luke", text: "two", kind: .message))
        let seen = try bus.read(after: 0, in: .all, access: han, limit: 100).messages.map(\.message.text)
        #expect(seen == ["luke created “T” with han", "one", "luke removed han"])
        #expect(try bus.read(after: 0, in: .all, access: .publicRooms, limit: 100).messages.isEmpty)
    }
}

@Suite("Notices: typing and read receipts")
struct NoticeBoardTests {
    @Test func aNoticeReachesTheRoomsOtherReadersWhoMaySeeItAndTypingIsThrottled() {
        let now = Mutex<Int64>(1_000)
        let board = NoticeBoard(clock: { now.withLock { $0 } })
        let directory = ConversationDirectory()
        _ = directory.apply(Message(id: 1, room: "c.1", user: "system", text: "", kind: .system, ts: 0,
                                    event: ConversationEvent(type: .created, actor: "luke", members: ["luke", "leia"], direct: true)))
        let heard = Mutex<[String]>([])
        func listener(_ name: String, _ filter: RoomFilter, _ access: RoomAccess) {
            _ = board.listen(filter: filter, access: access, user: name) { notice in heard.withLock { $0.append("\(name) \(notice.user)") } }
        }
        listener("leia", .room("c.1"), directory.access(forUser: "leia"))
        listener("luke", .all, directory.access(forUser: "luke"))
        listener("han", .all, directory.access(forUser: "han"))       // not a member
        listener("guest", .room("c.1"), .publicRooms)                // could not have opened it, and sees nothing private
        #expect(board.post(.typing(room: "c.1", user: "luke")) == 1)
        #expect(board.post(.typing(room: "c.1", user: "luke")) == nil)  // within a second
        now.withLock { $0 += NoticeBoard.typingInterval }
        #expect(board.post(.typing(room: "c.1", user: "LUKE")) == 1)
        #expect(board.post(.read(room: "c.1", user: "leia", id: 9)) == 1)
        #expect(heard.withLock { $0 } == ["leia luke", "leia LUKE", "luke leia"])
        #expect(Notice.read(room: "c.1", user: "leia", id: 9).json == Array(#"{"room":"c.1","user":"leia","id":9}"#.utf8))
    }
}
