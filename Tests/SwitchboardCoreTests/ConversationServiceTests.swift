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

    /// Each message of a conversation costs the commit a row per member:
    /// `--max-group-members` bounds what one group can cost everyone's
    /// publishes. Names given twice count once, and a list of thousands of
    /// names is refused at the first one past the cap, not compared pairwise.
    @Test func aConversationHasAtMostItsCapOfMembers() throws {
        let directory = ConversationDirectory()
        let bus = try MessageBus(store: InMemoryMessageStore(), conversations: directory)
        let access = AccessControl(verifier: nil, conversations: directory)
        for user in ["luke", "leia", "han", "chewie", "lando"] { access.registered(user) }
        let service = ConversationService(bus: bus, access: access, store: nil, notices: NoticeBoard(),
                                          limits: MessageLimits(maxConversationMembers: 3))
        let luke = Self.user("luke")
        /// The code and kind a refusal of `body` carries.
        func refusal(_ body: () throws -> Void) -> String? {
            do { try body() } catch let error as SwitchboardError { return "\(error.code) \(error.kind)" } catch { return "\(error)" }
            return nil
        }
        #expect(refusal { try service.create(by: luke, title: "Four", members: ["leia", "han", "chewie"], client: "t") { _ in } }
                == "too_many_members invalid")
        let crowd = Array(repeating: ["leia", "LEIA", "han", "luke"], count: 2_000).flatMap { $0 } + ["chewie"]
        #expect(refusal { try service.create(by: luke, title: "Crowd", members: crowd, client: "t") { _ in } } == "too_many_members invalid")
        // Three, the caller among them, with every name given twice: made.
        let created = try waiting { done in
            try service.create(by: luke, title: "Three", members: ["leia", "Leia", "han", "luke"], client: "t", completion: done)
        }
        guard case .created(let event, let room) = created else { Issue.record("a group of three is made"); return }
        #expect(event.members == ["luke", "leia", "han"])
        // Full: another is refused (409), a member already in is not.
        #expect(refusal { try service.add("chewie", to: room, by: luke) { _ in } } == "too_many_members conflict")
        #expect(try waiting { done in try service.add("han", to: room, by: luke, completion: done) }.members.count == 3)
        try waiting { done in try service.remove("me", from: room, by: Self.user("han"), completion: done) }
        #expect(try waiting { done in try service.add("chewie", to: room, by: luke, completion: done) }.members == ["luke", "leia", "chewie"])
    }

    /// Two additions asked for at once, each seeing the group one short of
    /// its cap, took it past the cap together: each was checked against the
    /// members stored, and neither was stored yet. Now they are checked
    /// against the members and those on their way.
    @Test func additionsAskedForAtOnceStayWithinTheCap() throws {
        let directory = ConversationDirectory()
        let bus = try MessageBus(store: InMemoryMessageStore(), conversations: directory)
        let access = AccessControl(verifier: nil, conversations: directory)
        for user in ["luke", "leia", "han", "chewie"] { access.registered(user) }
        let service = ConversationService(bus: bus, access: access, store: nil, notices: NoticeBoard(),
                                          limits: MessageLimits(maxConversationMembers: 3))
        let luke = Self.user("luke")
        let created = try waiting { done in try service.create(by: luke, title: "Two", members: ["leia"], client: "t", completion: done) }
        guard case .created(_, let room) = created else { Issue.record("a group of two is made"); return }
        // The commit thread held: both additions are asked for before either is stored.
        let hold = DispatchSemaphore(value: 0)
        bus.afterQueuedCommits { hold.wait() }
        let added = DispatchSemaphore(value: 0)
        let first = StoreGateTests.Cell<Result<Conversation, SwitchboardError>>()
        try service.add("han", to: room, by: luke) { first.value = $0; added.signal() }
        var refused: String?
        do { try service.add("chewie", to: room, by: luke) { _ in Issue.record("chewie is not added") } } catch {
            refused = error.code
        }
        hold.signal()
        #expect(refused == "too_many_members")
        #expect(added.wait(timeout: .now() + 10) == .success)
        #expect(try #require(first.value).get().members == ["luke", "leia", "han"])
        // Its place is given back once stored: after han leaves, chewie is added.
        try waiting { done in try service.remove("me", from: room, by: Self.user("han"), completion: done) }
        #expect(try waiting { done in try service.add("chewie", to: room, by: luke, completion: done) }.members == ["luke", "leia", "chewie"])
    }

    /// A conversation is a new room its creator brings into being: it is
    /// counted against `--room-rate` as a publish to a new room is. Without
    /// it one account made conversations (each naming anyone it liked) as
    /// fast as it could ask. The pair's existing direct conversation costs nothing.
    @Test func conversationsAreNewRoomsAgainstTheCreatorsRate() throws {
        let directory = ConversationDirectory()
        let bus = try MessageBus(store: InMemoryMessageStore(), conversations: directory)
        let access = AccessControl(verifier: nil, roomCreation: RoomCreationLimiter(burst: 2, isKnown: { _ in false }),
                                   conversations: directory)
        for user in ["luke", "leia", "han"] { access.registered(user) }
        let service = ConversationService(bus: bus, access: access, store: nil, notices: NoticeBoard(), limits: MessageLimits())
        let luke = Self.user("luke")
        _ = try waiting { done in try service.create(by: luke, title: nil, members: ["leia"], client: "t", completion: done) }
        _ = try waiting { done in try service.create(by: luke, title: "Trip", members: ["leia", "han"], client: "t", completion: done) }
        do {
            try service.create(by: luke, title: "Spam", members: ["han"], client: "t") { _ in }
            Issue.record("a third new conversation within the burst of 2 was made")
        } catch {
            #expect(error.code == "rate_limited" && error.retryAfterSeconds != nil)
        }
        // The pair's direct conversation exists: asking for it again is no new room.
        guard case .existing = try waiting({ done in try service.create(by: luke, title: nil, members: ["leia"], client: "t", completion: done) })
        else { Issue.record("the existing pair was not given back"); return }
        // Another creator has a bucket of their own.
        _ = try waiting { done in try service.create(by: Self.user("han"), title: "Own", members: ["leia"], client: "t", completion: done) }
    }
}
