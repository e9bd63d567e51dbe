import Synchronization
import Testing
import SwitchboardTesting
@testable import SwitchboardCore

@Suite("Presence")
struct PresenceTests {
    @Test func oneJoinAndOneLeavePerUserAcrossTransports() {
        var registry = PresenceRegistry()
        #expect(registry.connect(user: "luke", room: "lobby", transport: .tcp) == PresenceChange(room: "lobby", user: "luke", kind: .join, transport: .tcp))
        #expect(registry.connect(user: "luke", room: "lobby", transport: .sse) == nil)
        #expect(registry.connect(user: "luke", room: "lobby", transport: .sse) == nil)
        #expect(registry.everyone().map(\.transports) == [[.sse, .tcp]])
        #expect(registry.disconnect(user: "luke", room: "lobby", transport: .tcp) == nil)
        #expect(registry.disconnect(user: "luke", room: "lobby", transport: .sse) == nil)
        #expect(registry.disconnect(user: "luke", room: "lobby", transport: .sse) == PresenceChange(room: "lobby", user: "luke", kind: .leave, transport: .sse))
        #expect(registry.disconnect(user: "luke", room: "lobby", transport: .sse) == nil)
        #expect(registry.everyone().isEmpty)
    }

    @Test func aUserIsOnlineFromTheFirstRoomToTheLast() {
        let bus = try! MessageBus(store: InMemoryMessageStore())
        let presence = Presence(bus: bus)
        let flips = Mutex<[String]>([])
        presence.observeUsers { user, online in flips.withLock { $0.append("\(user) \(online ? "online" : "offline")") } }
        presence.connect(user: "han", room: "a", transport: .tcp)
        presence.connect(user: "han", room: "b", transport: .sse)
        presence.connect(user: "han", room: "a", transport: .websocket)
        presence.disconnect(user: "han", room: "a", transport: .tcp)
        presence.disconnect(user: "han", room: "a", transport: .websocket)
        #expect(flips.withLock { $0 } == ["han online"], "still in room b")
        presence.reclaim()  // joins announced again are nobody new
        presence.disconnect(user: "han", room: "b", transport: .sse)
        #expect(flips.withLock { $0 } == ["han online", "han offline"])
        #expect(presence.poll(user: "kim", room: "a", transport: .shortPoll, now: 0))
        _ = presence.expireLeases(now: UInt64(Presence.pollLeaseSeconds * 1e9) + 1)
        #expect(flips.withLock { $0 } == ["han online", "han offline", "kim online", "kim offline"])
    }

    @Test func roomsAreSeparate() {
        var registry = PresenceRegistry()
        #expect(registry.connect(user: "han", room: "a", transport: .tcp) != nil)
        #expect(registry.connect(user: "han", room: "b", transport: .tcp) != nil)
        #expect(registry.everyone().map { "\($0.room):\($0.user)" }.sorted() == ["a:han", "b:han"])
    }

    @Test func pollLeasesExpireIntoALeaveUnlessAConnectionRemains() {
        var registry = PresenceRegistry()
        #expect(registry.renewLease(user: "kim", room: "lobby", transport: .shortPoll, until: 100)?.kind == .join)
        #expect(registry.renewLease(user: "kim", room: "lobby", transport: .shortPoll, until: 200) == nil)
        #expect(registry.renewLease(user: "lee", room: "lobby", transport: .longPoll, until: 150)?.kind == .join)
        #expect(registry.connect(user: "lee", room: "lobby", transport: .sse) == nil)
        let first = registry.expireLeases(now: 160)
        #expect(first.changes.isEmpty)  // kim renewed to 200; lee still has SSE
        #expect(first.nextExpiry == 200)
        let second = registry.expireLeases(now: 200)
        #expect(second.changes == [PresenceChange(room: "lobby", user: "kim", kind: .leave)])
        #expect(second.nextExpiry == nil)
        #expect(registry.everyone().map(\.user) == ["lee"])
    }

    @Test func presencePublishesJoinAndLeaveOnTheBus() throws {
        let bus = try MessageBus(store: InMemoryMessageStore())
        bus.publish(MessageDraft(room: "lobby", user: "host", text: "the room exists", kind: .message)) { _ in }
        bus.waitForQueuedCommits(seconds: 5)
        let presence = Presence(bus: bus)
        presence.connect(user: "luke", room: "lobby", transport: .tcp)
        presence.connect(user: "luke", room: "lobby", transport: .sse)
        presence.disconnect(user: "luke", room: "lobby", transport: .tcp)
        presence.disconnect(user: "luke", room: "lobby", transport: .sse)
        bus.waitForQueuedCommits(seconds: 5)
        let messages = try bus.read(after: 1, in: .all, access: .everything, limit: 10).messages.map(\.message)
        #expect(messages.map(\.kind) == [.join, .leave])
        #expect(messages.allSatisfy { $0.user == "luke" && $0.room == "lobby" })
    }

    /// A room entered and left with nothing said keeps nothing: the join is
    /// taken back, no leave is stored, the room is gone; a room where
    /// something was said, or someone else came, keeps both.
    @Test func aRoomLeftWithNothingSaidKeepsNoTrace() throws {
        let store = InMemoryMessageStore()
        let bus = try MessageBus(store: store)
        let presence = Presence(bus: bus)
        presence.connect(user: "luke", room: "hop", transport: .tcp)
        bus.waitForQueuedCommits(seconds: 5)
        #expect(bus.isKnownRoom("hop"))
        presence.disconnect(user: "luke", room: "hop", transport: .tcp)
        // Both queued before the join was stored, too.
        presence.connect(user: "luke", room: "quick", transport: .tcp)
        presence.disconnect(user: "luke", room: "quick", transport: .tcp)
        bus.waitForQueuedCommits(seconds: 5)
        #expect(try store.rooms().isEmpty && !bus.isKnownRoom("hop") && !bus.isKnownRoom("quick"))
        #expect(try bus.read(after: 0, in: .all, access: .everything, limit: 10).messages.isEmpty)

        presence.connect(user: "leia", room: "talk", transport: .tcp)
        bus.publish(MessageDraft(room: "talk", user: "leia", text: "hi", kind: .message)) { _ in }
        presence.disconnect(user: "leia", room: "talk", transport: .tcp)
        presence.connect(user: "han", room: "visit", transport: .tcp)
        presence.connect(user: "chewie", room: "visit", transport: .sse)
        presence.disconnect(user: "han", room: "visit", transport: .tcp)
        presence.disconnect(user: "chewie", room: "visit", transport: .sse)
        bus.waitForQueuedCommits(seconds: 5)
        let kept = try bus.read(after: 0, in: .all, access: .everything, limit: 20).messages.map { "\($0.message.room) \($0.message.user) \($0.message.kind.rawValue)" }
        #expect(kept == ["talk leia join", "talk leia message", "talk leia leave",
                         "visit han join", "visit chewie join", "visit han leave", "visit chewie leave"])
    }
}
