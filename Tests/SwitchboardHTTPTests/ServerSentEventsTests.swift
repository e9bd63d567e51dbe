import Synchronization
import Testing
import SwitchboardTesting
import MicroHTTPD
import SwitchboardCore
@testable import SwitchboardHTTP

@Suite("SSE stream")
struct ServerSentEventsTests {
    func next(_ subscription: ServerSentEvents, parks: inout Int) -> (HTTPStreamRead, String) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let action = buffer.withUnsafeMutableBytes { subscription.next(into: $0, park: { parks += 1 }) }
        if case .wrote(let count) = action { return (action, String(decoding: buffer[..<count], as: UTF8.self)) }
        return (action, "")
    }

    @Test func opensWithRetryReplaysThenParksThenGoesLive() throws {
        let bus = try MessageBus(store: InMemoryMessageStore())
        try bus.publishAndWait(MessageDraft(room: "lobby", user: "u", text: "old", kind: .message))
        let wakes = Atomic<Int>(0)
        let subscription = ServerSentEvents(bus: bus, filter: .room("lobby"), access: .everything, resumeAfter: 0, onWake: { wakes.add(1, ordering: .relaxed) })
        var parks = 0
        #expect(next(subscription, parks: &parks).1 == "retry: 2000\n\n")
        #expect(next(subscription, parks: &parks).1.hasPrefix("id: 1\nevent: message\n"))
        #expect(next(subscription, parks: &parks).0 == .suspended)
        #expect(parks == 1)
        let live = try bus.publishAndWait(MessageDraft(room: "lobby", user: "u", text: "live", kind: .message))
        #expect(wakes.load(ordering: .relaxed) == 1)
        #expect(next(subscription, parks: &parks).1 == String(decoding: live.frame(SSEEvent.self), as: UTF8.self))
    }

    @Test func liveOnlySubscriptionSkipsHistoryAndSendsKeepalives() throws {
        let bus = try MessageBus(store: InMemoryMessageStore())
        try bus.publishAndWait(MessageDraft(room: "lobby", user: "u", text: "old", kind: .message))
        let subscription = ServerSentEvents(bus: bus, filter: .all, access: .everything, resumeAfter: nil, onWake: {})
        var parks = 0
        _ = next(subscription, parks: &parks)
        #expect(next(subscription, parks: &parks).0 == .suspended)
        subscription.requestKeepalive()
        #expect(next(subscription, parks: &parks).1 == ": keepalive\n\n")
    }

    @Test func endsWhenTheBusClosesOrWhenEnded() throws {
        let bus = try MessageBus(store: InMemoryMessageStore())
        let subscription = ServerSentEvents(bus: bus, filter: .all, access: .everything, resumeAfter: nil, onWake: {})
        var parks = 0
        _ = next(subscription, parks: &parks)
        #expect(next(subscription, parks: &parks).0 == .suspended)
        bus.close()
        #expect(next(subscription, parks: &parks).0 == .end)

        let other = ServerSentEvents(bus: try MessageBus(store: InMemoryMessageStore()), filter: .all, access: .everything, resumeAfter: nil, onWake: {})
        other.end()
        _ = next(other, parks: &parks)
        #expect(next(other, parks: &parks).0 == .end)
    }
}
