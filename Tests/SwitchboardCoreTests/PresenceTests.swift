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
        let presence = Presence(bus: bus)
        presence.connect(user: "luke", room: "lobby", transport: .tcp)
        presence.connect(user: "luke", room: "lobby", transport: .sse)
        presence.disconnect(user: "luke", room: "lobby", transport: .tcp)
        presence.disconnect(user: "luke", room: "lobby", transport: .sse)
        bus.waitForQueuedCommits(seconds: 5)
        let messages = try bus.read(after: 0, in: .all, access: .everything, limit: 10).messages.map(\.message)
        #expect(messages.map(\.kind) == [.join, .leave])
        #expect(messages.allSatisfy { $0.user == "luke" && $0.room == "lobby" })
    }
}
