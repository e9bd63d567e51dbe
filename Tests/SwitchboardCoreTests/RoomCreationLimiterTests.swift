import Synchronization
import Testing
@testable import SwitchboardCore

/// New rooms per client, on a fake clock (monotonic nanoseconds).
@Suite("Room creation limiter")
struct RoomCreationLimiterTests {
    final class Clock: Sendable {
        let now = Atomic<UInt64>(0)
        func advance(seconds: Double) { now.add(UInt64(seconds * 1e9), ordering: .relaxed) }
    }

    @Test func newRoomsTakeTokensKnownOnesDoNotAndTheBucketRefills() throws {
        let clock = Clock()
        let known = Mutex<Set<String>>(["lobby"])
        let limiter = RoomCreationLimiter(burst: 3, isKnown: { room in known.withLock { $0.contains(room) } },
                                          clock: { clock.now.load(ordering: .relaxed) })
        for room in ["a", "b", "c"] { try limiter.admit(room, key: "address:10.0.0.1") }
        #expect(throws: SwitchboardError.self) { try limiter.admit("d", key: "address:10.0.0.1") }
        do {
            try limiter.admit("d", key: "address:10.0.0.1")
        } catch {
            #expect(error.code == "rate_limited" && error.retryAfterSeconds == 34)  // 3 in 100 s
        }
        try limiter.admit("lobby", key: "address:10.0.0.1")  // known: free
        try limiter.admit("d", key: "address:10.0.0.2")      // another client's bucket
        clock.advance(seconds: 34)
        try limiter.admit("d", key: "address:10.0.0.1")
        // The key is worked out only for a new room.
        let asked = Atomic<Int>(0)
        func key() -> String { asked.add(1, ordering: .relaxed); return "user:luke" }
        try limiter.admit("lobby", key: key())
        #expect(asked.load(ordering: .relaxed) == 0)
        try limiter.admit("e", key: key())
        #expect(asked.load(ordering: .relaxed) == 1)
    }

    @Test func theAdminIsNeverCountedAndGuestsAreCountedByAddress() throws {
        let limiter = RoomCreationLimiter(burst: 1, isKnown: { _ in false }, clock: { 0 })
        let access = AccessControl(verifier: nil, roomCreation: limiter)
        try access.admitRoom(.guest, "one", client: "10.0.0.1")
        #expect(throws: SwitchboardError.self) { try access.admitRoom(.guest, "two", client: "10.0.0.1") }
        try access.admitRoom(.guest, "two", client: "10.0.0.2")
        for room in ["x", "y", "z"] { try access.admitRoom(.admin, room, client: "10.0.0.1") }
    }

    @Test func aNewRoomIsPaidForOnceWhileItsFirstMessageIsStored() throws {
        // Nothing is stored yet (a slow commit): every join sees the room as new.
        let limiter = RoomCreationLimiter(burst: 2, isKnown: { _ in false }, clock: { 0 }, rememberedRooms: 3)
        for _ in 0..<100 { try limiter.admit("lecture", key: "address:10.0.0.1") }  // 100 guests behind one address
        try limiter.admit("lecture", key: "address:10.0.0.2")
        try limiter.admit("other", key: "address:10.0.0.1")
        #expect(throws: SwitchboardError.self) { try limiter.admit("third", key: "address:10.0.0.1") }
        // Bounded: past `rememberedRooms` the rooms kept are forgotten, and cost again.
        for room in ["b", "c"] { try limiter.admit(room, key: "address:10.0.0.\(room == "b" ? 3 : 4)") }
        #expect(throws: SwitchboardError.self) {
            try limiter.admit("lecture", key: "address:10.0.0.1")
            try limiter.admit("other", key: "address:10.0.0.1")
        }
    }
}
