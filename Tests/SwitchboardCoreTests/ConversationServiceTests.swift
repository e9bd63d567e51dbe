import Dispatch
import Foundation
import Testing
import SwitchboardTesting
@testable import SwitchboardCore

/// The conversation rules, with no HTTP and no socket: what every transport
/// gets from Core.
@Suite("Conversation service")
struct ConversationServiceTests {
    let bus: MessageBus
    let service: ConversationService

    init() throws {
        let directory = ConversationDirectory()
        bus = try MessageBus(store: InMemoryMessageStore(), conversations: directory)
        let access = AccessControl(verifier: nil, conversations: directory)
        for user in ["luke", "Leia", "han"] { access.registered(user) }
        service = ConversationService(bus: bus, access: access, store: nil, notices: NoticeBoard(), limits: MessageLimits())
    }

    static func user(_ name: String) -> Identity {
        .user(TokenClaims(user: name, expires: 4_000_000_000_000, revocationKey: name))
    }

    /// Waits for a completion's value (off every serving thread: a test).
    func waiting<T: Sendable>(_ start: (@escaping @Sendable (Result<T, SwitchboardError>) -> Void) throws -> Void) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let cell = StoreGateTests.Cell<Result<T, SwitchboardError>>()
        try start { cell.value = $0; done.signal() }
        #expect(done.wait(timeout: .now() + 10) == .success)
        return try #require(cell.value).get()
    }

    @Test func membersAreAccountsEachOnceWithTheCallerAndAPairIsOneDirectConversation() throws {
        let luke = Self.user("luke")
        let created = try waiting { done in
            try service.create(by: luke, title: nil, members: ["leia", "LEIA", "luke"], client: "test", completion: done)
        }
        guard case .created(let event, let room) = created else { Issue.record("a new pair makes a conversation"); return }
        // As the accounts spell themselves, each once, the caller first.
        #expect(event.members == ["luke", "Leia"] && event.direct == true && ConversationRoom.isConversation(room))
        let again = try waiting { done in
            try service.create(by: Self.user("Leia"), title: nil, members: ["Luke"], client: "test", completion: done)
        }
        guard case .existing(let existing) = again else { Issue.record("the pair's conversation is the same one"); return }
        #expect(existing.room == room)
        #expect(throws: SwitchboardError.self) {
            try service.create(by: luke, title: nil, members: ["nobody"], client: "test") { _ in }
        }
        #expect(throws: SwitchboardError.self) { try service.create(by: luke, title: nil, members: ["luke"], client: "test") { _ in } }
        #expect(throws: SwitchboardError.signInRequired) { try service.create(by: .guest, title: nil, members: ["leia"], client: "t") { _ in } }
        // A direct conversation keeps its two members and has no title.
        #expect(throws: SwitchboardError.self) { try service.rename(room, by: luke, title: "Trip") { _ in } }
    }

    @Test func aGroupIsRenamedJoinedAndLeftAndOnlyMembersMarkOrMute() throws {
        let luke = Self.user("luke")
        let created = try waiting { done in
            try service.create(by: luke, title: "  Trip ", members: ["leia"], client: "test", completion: done)
        }
        guard case .created(let event, let room) = created else { Issue.record("a group is made"); return }
        #expect(event.title == "Trip" && event.direct == false)
        #expect(try waiting { done in try service.rename(room, by: luke, title: "Trip 2", completion: done) }.title == "Trip 2")
        #expect(try waiting { done in try service.add("han", to: room, by: luke, completion: done) }.members == ["luke", "Leia", "han"])
        try waiting { done in try service.remove("me", from: room, by: Self.user("han"), completion: done) }
        #expect(bus.conversations.conversation(room)?.members == ["luke", "Leia"])
        #expect(throws: SwitchboardError.self) { try service.remove("han", from: room, by: luke) { _ in } }
        // Markers and mutes are a member's own: han left, so is refused before any store is asked.
        #expect(throws: SwitchboardError.notAMember(room)) { try service.markRead(room, id: 1, by: Self.user("han")) { _ in } }
        #expect(throws: SwitchboardError.self) { try service.rename(room, by: luke, title: String(repeating: "x", count: 101)) { _ in } }
        #expect(throws: SwitchboardError.self) { try service.rename(room, by: luke, title: "a\u{7}b") { _ in } }
    }
}
