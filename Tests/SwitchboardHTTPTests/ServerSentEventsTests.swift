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

    /// A stream that has written a batch and finds more does not write
    /// again at once: it suspends (not parked on the bus) and asks for its
    /// turn; at its turn it takes everything new since. With thousands of
    /// busy streams, otherwise, none ever parked, every pass of the loop
    /// wrote to all of them, and a publish's 201 waited 150-190 ms for the
    /// pass (half the runs of SSE 5,000 @ 50/s).
    @Test func aStreamThatHasWrittenABatchWaitsItsTurnForTheNext() throws {
        let bus = try MessageBus(store: InMemoryMessageStore())
        let wakes = Atomic<Int>(0)
        let subscription = ServerSentEvents(bus: bus, filter: .room("lobby"), access: .everything, resumeAfter: nil,
                                            onWake: { wakes.add(1, ordering: .relaxed) })
        var parks = 0
        #expect(next(subscription, parks: &parks).1 == "retry: 2000\n\n")
        let first = try bus.publishAndWait(MessageDraft(room: "lobby", user: "u", text: "one", kind: .message))
        #expect(next(subscription, parks: &parks).1 == String(decoding: first.frame(SSEEvent.self), as: UTF8.self))
        let second = try bus.publishAndWait(MessageDraft(room: "lobby", user: "u", text: "two", kind: .message))
        let third = try bus.publishAndWait(MessageDraft(room: "lobby", user: "u", text: "three", kind: .message))
        // More is there: suspended and queued for its turn, not written, not parked on the bus.
        #expect(next(subscription, parks: &parks).0 == .suspended)
        #expect(parks == 1 && wakes.load(ordering: .relaxed) == 1 && bus.parkedCount == 0)
        // Its turn: both new messages in one write.
        let both = String(decoding: second.frame(SSEEvent.self) + third.frame(SSEEvent.self), as: UTF8.self)
        #expect(next(subscription, parks: &parks).1 == both)
        // Nothing new after it: parked on the bus as before, until a publish wakes it.
        try bus.publishAndWait(MessageDraft(room: "other", user: "u", text: "elsewhere", kind: .message))
        #expect(next(subscription, parks: &parks).0 == .suspended)
        #expect(parks == 2 && wakes.load(ordering: .relaxed) == 1 && bus.parkedCount == 1)
        try bus.publishAndWait(MessageDraft(room: "lobby", user: "u", text: "four", kind: .message))
        #expect(wakes.load(ordering: .relaxed) == 2)
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
