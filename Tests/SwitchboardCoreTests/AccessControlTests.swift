import Synchronization
import Testing
@testable import SwitchboardCore
import SwitchboardTesting

/// The one place that decides who a client is and what it may do, without
/// I/O: a table of tokens stands in for signatures, a settable clock for time.
@Suite("Access control")
struct AccessControlTests {
    /// A settable clock (ms).
    final class Clock: Sendable {
        let value = Atomic<Int64>(1_000_000)
        func store(_ value: Int64) { self.value.store(value, ordering: .relaxed) }
        func load() -> Int64 { value.load(ordering: .relaxed) }
    }
    let now = Clock()
    static let luke = TokenClaims(user: "luke", expires: 2_000_000, revocationKey: "luke-1")

    func access(_ mode: AccessMode = .open, rate: PublishRateLimiter? = nil) -> AccessControl {
        AccessControl(mode: mode, verifier: StaticTokenVerifier(["luke": Self.luke]), rateLimiter: rate,
                      clock: { [now] in now.load() })
    }

    @Test func whoSpeaksIsTheTokensUserAGuestsChoiceOrAnyoneForTheAdmin() throws {
        let access = access()
        access.registered("Luke")
        let luke = try access.identify(token: "luke")
        #expect(try access.speaker(luke, claimed: nil) == "luke")
        #expect(throws: SwitchboardError.notYourName("luke")) { try access.speaker(luke, claimed: "han") }
        #expect(throws: SwitchboardError.nameReserved("LUKE")) { try access.speaker(.guest, claimed: "LUKE") }
        #expect(try access.speaker(.guest, claimed: "han") == "han")
        #expect(try access.speaker(.admin, claimed: "luke") == "luke")
        #expect(throws: SwitchboardError.unauthorized) { try self.access(.required).speaker(.guest, claimed: "han") }
    }

    @Test func revocationExpiryAndBansEndAnIdentity() throws {
        let access = access()
        let luke = try access.identify(token: "luke")
        #expect(access.ending(luke) == nil)
        access.banned("LUKE", until: 1_500_000)
        #expect(access.ending(luke) == .banned)
        #expect(throws: SwitchboardError.banned(until: 1_500_000)) { try access.identify(token: "luke") }
        #expect(throws: SwitchboardError.banned(until: 1_500_000)) { try access.speaker(.guest, claimed: "luke") }
        now.store(1_500_000)  // the ban is over
        #expect(access.ending(luke) == nil)
        access.revoked("luke-1", expires: 2_000_000)
        #expect(access.ending(luke) == .tokenRevoked)
        #expect(throws: SwitchboardError.tokenRevoked) { try access.identify(token: "luke") }
        now.store(2_000_000)
        #expect(access.ending(luke) == .tokenExpired)
        #expect(access.ending(.guest) == nil && access.ending(.admin) == nil)
    }

    @Test func aPublishIsDecidedOnceForEveryTransport() throws {
        let access = access(rate: PublishRateLimiter(rate: 1, burst: 2, clock: { 0 }))
        let luke = try access.identify(token: "luke")
        let draft = try access.draft(luke, room: "lobby", user: nil, text: "hi\n", limits: MessageLimits(), client: "a")
        #expect(draft == MessageDraft(room: "lobby", user: "luke", text: "hi", kind: .message))
        #expect(throws: SwitchboardError.self) { try access.draft(.guest, room: "lobby", user: nil, text: "hi", limits: MessageLimits(), client: "a") }
        _ = try access.draft(luke, room: "lobby", user: "luke", text: "2", limits: MessageLimits(), client: "a")
        #expect(throws: SwitchboardError.rateLimited(retryAfter: 1)) {
            try access.draft(luke, room: "lobby", user: nil, text: "3", limits: MessageLimits(), client: "a")
        }
        // The admin is never limited; guests are counted by address.
        for _ in 0..<5 { _ = try access.draft(.admin, room: "lobby", user: "bot", text: "x", limits: MessageLimits(), client: "a") }
        _ = try access.draft(.guest, room: "lobby", user: "han", text: "x", limits: MessageLimits(), client: "b")
        _ = try access.draft(.guest, room: "lobby", user: "chewie", text: "x", limits: MessageLimits(), client: "b")
        #expect(throws: SwitchboardError.self) { try access.draft(.guest, room: "lobby", user: "han", text: "x", limits: MessageLimits(), client: "b") }
    }

    @Test func aRoomsClaimLimitsRoomsAndAllRooms() {
        let grant = RoomGrant(["lobby", "team-*"])
        #expect(grant.allows("lobby") && grant.allows("team-") && grant.allows("team-red") && !grant.allows("lobby2"))
        #expect(RoomGrant(["*"]).allows("anything") && !RoomGrant([]).allows("lobby"))
        let access = access()
        let limited = Identity.user(TokenClaims(user: "x", expires: 2_000_000, rooms: grant, revocationKey: "x"))
        #expect(throws: SwitchboardError.allRoomsForbidden) { try access.checkRooms(limited, .all) }
        #expect(throws: SwitchboardError.roomForbidden("other")) { try access.checkRooms(limited, .rooms(["lobby", "other"])) }
        #expect(throws: Never.self) { try access.checkRooms(limited, .rooms(["lobby", "team-blue"])) }
        #expect(throws: SwitchboardError.unauthorized) { try self.access(.required).checkRooms(.guest, .all) }
    }

    @Test func theRateRefillsWithTime() {
        let clock = Clock()
        clock.store(0)
        let limiter = PublishRateLimiter(rate: 2, burst: 1, clock: { UInt64(clock.load()) })
        #expect(limiter.take("k") == nil)
        #expect(limiter.take("k") == 1)
        clock.store(500_000_000)
        #expect(limiter.take("k") == nil)
        #expect(limiter.take("other") == nil)
    }

    /// A rate so small that the wait is more seconds than an `Int` holds
    /// (`--sign-in-rate 1e-300` makes one of 1.7e-303 a second): the
    /// second attempt trapped converting it.
    @Test func aTinyRateWaitsAYearAtMost() {
        let limiter = PublishRateLimiter(rate: 1e-300, burst: 1, clock: { 0 })
        #expect(limiter.take("k") == nil)
        #expect(limiter.take("k") == 31_536_000)
        #expect(PublishRateLimiter.wholeSeconds(.nan) == 31_536_000)
        #expect(PublishRateLimiter.wholeSeconds(0.2) == 1)
        #expect(PublishRateLimiter.wholeSeconds(2.5) == 3)
    }
}
