import Foundation
import Synchronization
import Testing
import SwitchboardTesting
@testable import SwitchboardCore

@Suite("Connection directory")
struct ConnectionDirectoryTests {
    /// A bus whose rooms `lobby` and `cantina` exist (someone spoke in each:
    /// a room entered and left with nothing said keeps no join or leave).
    func setUp() throws -> (MessageBus, Presence, ConnectionDirectory) {
        let bus = try MessageBus(store: InMemoryMessageStore())
        for room in ["lobby", "cantina"] { bus.publish(MessageDraft(room: room, user: "host", text: "here", kind: .message)) { _ in } }
        bus.waitForQueuedCommits(seconds: 10)
        let presence = Presence(bus: bus)
        return (bus, presence, ConnectionDirectory(presence: presence))
    }

    /// The joins and leaves stored, once every queued one is committed.
    func kinds(_ bus: MessageBus) throws -> [String] {
        bus.waitForQueuedCommits(seconds: 10)
        return try bus.read(after: 0, in: .all, access: .everything, limit: 100).messages.filter { $0.message.kind != .message }
            .map { "\($0.message.user) \($0.message.kind.rawValue)" }
    }

    @Test func openedOnceClosedOnceCountedAndPresent() throws {
        let (bus, presence, connections) = try setUp()
        let anonymous = connections.open(.sse)
        let luke = connections.open(.tcp, user: "luke", rooms: ["lobby"])
        let lukeAgain = connections.open(.sse, user: "luke", rooms: ["lobby"])
        #expect(connections.counts()[.sse] == 2 && connections.counts()[.tcp] == 1)
        #expect(presence.online(in: "lobby").map(\.user) == ["luke"])
        connections.close(luke)
        connections.close(luke)  // twice: no second leave, no negative count
        #expect(connections.counts()[.tcp] == 0)
        connections.close(lukeAgain)
        connections.close(anonymous)
        #expect(connections.counts()[.sse] == 0)
        #expect(try kinds(bus) == ["luke join", "luke leave"])
    }

    /// An anonymous long poll of a public room is counted, and no more: a
    /// kick of anyone leaves it alone, and nobody's presence changes.
    @Test func aConnectionOnlyCountedIsCountedAndNothingElse() throws {
        let (bus, presence, connections) = try setUp()
        connections.openCounted(.longPoll)
        connections.openCounted(.longPoll)
        #expect(connections.counts()[.longPoll] == 2)
        #expect(connections.kick(user: "luke") == 0 && presence.online(in: "lobby").isEmpty)
        connections.closeCounted(.longPoll)
        connections.closeCounted(.longPoll)
        #expect(connections.counts()[.longPoll] == 0)
        #expect(try kinds(bus) == [])
    }

    @Test func identifyAndMoveKeepPresenceInStep() throws {
        let (bus, presence, connections) = try setUp()
        let client = connections.open(.tcp)
        connections.identify(client, user: "han", rooms: ["lobby"], close: nil)
        connections.move(client, to: ["cantina"])
        #expect(presence.online(in: "lobby").isEmpty)
        #expect(presence.online(in: "cantina").map(\.user) == ["han"])
        connections.close(client)
        #expect(try kinds(bus) == ["han join", "han leave", "han join", "han leave"])
    }

    @Test func kickClosesEveryConnectionOfTheUserOnce() throws {
        let (_, _, connections) = try setUp()
        let closed = Atomic<Int>(0)
        let a = connections.open(.sse, user: "leia", rooms: ["lobby"]) { _ in closed.add(1, ordering: .relaxed) }
        _ = connections.open(.tcp, user: "leia", rooms: ["lobby"]) { _ in closed.add(1, ordering: .relaxed) }
        _ = connections.open(.tcp, user: "luke", rooms: ["lobby"]) { _ in closed.add(100, ordering: .relaxed) }
        #expect(connections.kick(user: "leia") == 2)
        #expect(closed.load(ordering: .relaxed) == 2)
        // Not yet closed by their transports: a second kick closes nothing again.
        #expect(connections.kick(user: "leia") == 0)
        connections.close(a)
        #expect(connections.counts()[.sse] == 0)
    }

    /// Streams that close give their memory back a moment later, once for
    /// many; polls, which hold none, do not ask.
    @Test func closedStreamsGiveTheirMemoryBackOnceForMany() throws {
        let (_, presence, _) = try setUp()
        let scheduler = DeadlineScheduler()
        scheduler.start()
        defer { scheduler.stop() }
        let connections = ConnectionDirectory(presence: presence, scheduler: scheduler, memoryReturnDelay: 0.2)
        let polls = (0..<3).map { _ in connections.open(.longPoll) }
        for poll in polls { connections.close(poll) }
        connections.openCounted(.shortPoll)
        connections.closeCounted(.shortPoll)
        usleep(500_000)  // past the delay
        #expect(connections.memoryTrims == 0)
        for transport in [Transport.sse, .tcp, .websocket] {
            let before = connections.memoryTrims
            let streams = (0..<50).map { _ in connections.open(transport) }
            for stream in streams { connections.close(stream) }
            for _ in 0..<200 where connections.memoryTrims == before { usleep(10_000) }
            #expect(connections.memoryTrims == before + 1, "\(transport)")
        }
    }

    /// The wall clock a test sets (ms since the epoch), for tokens' expiry.
    final class WallClock: Sendable {
        private let milliseconds = Atomic<Int64>(1_000_000)
        var now: Int64 { milliseconds.load(ordering: .relaxed) }
        func set(_ value: Int64) { milliseconds.store(value, ordering: .relaxed) }
    }

    /// `body` with a directory that ends connections whose token expires,
    /// on a started scheduler (stopped after it) and a clock the test sets.
    func withExpiringTokens(_ body: (DeadlineScheduler, WallClock, ConnectionDirectory) throws -> Void) throws {
        let (_, presence, _) = try setUp()
        let scheduler = DeadlineScheduler()
        scheduler.start()
        defer { scheduler.stop() }
        let clock = WallClock()
        try body(scheduler, clock, ConnectionDirectory(presence: presence, scheduler: scheduler, clock: { clock.now }))
    }

    @Test func aConnectionWhoseTokenEndsIsClosedSayingWhy() throws { try withExpiringTokens { _, now, connections in
        let reasons = Mutex<[ConnectionEnd]>([])
        let claims = TokenClaims(user: "leia", expires: 1_000_050, revocationKey: "k")
        _ = connections.open(.sse, user: "leia", rooms: ["lobby"], identity: .user(claims)) { reason in reasons.withLock { $0.append(reason) } }
        // Its deadline comes, 50 ms on; the token has expired by then.
        now.set(1_000_050)
        for _ in 0..<200 where reasons.withLock({ $0.isEmpty }) { usleep(10_000) }
        #expect(reasons.withLock { $0 } == [.tokenExpired])

        // A sign-out or a ban ends what the access check says must end, once.
        let other = TokenClaims(user: "han", expires: 9_000_000, revocationKey: "h")
        _ = connections.open(.tcp, user: "han", rooms: ["lobby"], identity: .user(other)) { reason in reasons.withLock { $0.append(reason) } }
        #expect(connections.endInvalid { $0.claims?.revocationKey == "h" ? .tokenRevoked : nil } == 1)
        #expect(connections.endInvalid { $0.claims?.revocationKey == "h" ? .tokenRevoked : nil } == 0)
        #expect(reasons.withLock { $0 } == [.tokenExpired, .tokenRevoked])
    } }

    /// One deadline per instant a token expires, not one per connection: a
    /// deadline per connection stayed in the scheduler until the token
    /// expired (a session lasts 7 days), so each long poll or reconnection
    /// with a token left memory behind that a signed-in client could grow
    /// at will (found by massif in a soak: 846 KB in a few minutes).
    @Test func connectionsWithOneTokenShareOneDeadlineAndLeaveNothingOnceClosed() throws { try withExpiringTokens { scheduler, now, connections in
        let week = TokenClaims(user: "leia", expires: 1_000_000 + 7 * 86_400_000, revocationKey: "k")
        // Long polls (a stream's close asks for a memory trim, a deadline of its own).
        for _ in 0..<3_000 { connections.close(connections.open(.longPoll, identity: .user(week))) }
        #expect(scheduler.pending == 1)
        #expect(connections.expiryCounts.instants == 1)
        #expect(connections.expiryCounts.connections == 0)

        // A token renewed on a connection (raw TCP's `auth:`): the old
        // token's deadline finds nothing to end, the new one's is kept.
        let reasons = Mutex<[ConnectionEnd]>([])
        let soon = TokenClaims(user: "leia", expires: 1_000_050, revocationKey: "k")
        let tcp = connections.open(.tcp, user: "leia", rooms: ["lobby"], identity: .user(soon)) { reason in
            reasons.withLock { $0.append(reason) }
        }
        connections.authenticated(tcp, as: .user(week)) { reason in reasons.withLock { $0.append(reason) } }
        #expect(scheduler.pending == 2)
        now.set(1_000_060)
        for _ in 0..<200 where scheduler.pending > 1 { usleep(10_000) }
        #expect(scheduler.pending == 1)
        #expect(reasons.withLock { $0 }.isEmpty)
        #expect(connections.expiryCounts.instants == 1)
        #expect(connections.expiryCounts.connections == 1)

        // A token whose instant has passed (a clock's race): a deadline
        // again, at once, and the connection is ended.
        let late = connections.open(.sse, identity: .user(soon)) { reason in reasons.withLock { $0.append(reason) } }
        for _ in 0..<200 where reasons.withLock({ $0.isEmpty }) { usleep(10_000) }
        #expect(reasons.withLock { $0 } == [.tokenExpired])
        connections.close(late)
        connections.close(tcp)
        #expect(connections.expiryCounts.connections == 0)
        #expect(connections.expiryCounts.instants == 1)  // the week's, until it comes
    } }

    /// A connection is checked when it is decided who it is and entered
    /// later (a WebSocket once SwiftNIO has its socket): a sign-out or a
    /// ban between the two scanned the directory without it. Entered, it is
    /// asked again, and ended if its identity no longer stands.
    @Test func aConnectionEnteredAfterItsTokenWasRevokedIsEnded() throws {
        let bus = try MessageBus(store: InMemoryMessageStore())
        let revoked = TokenClaims(user: "leia", expires: Int64.max, revocationKey: "gone")
        let fine = TokenClaims(user: "han", expires: Int64.max, revocationKey: "kept")
        let connections = ConnectionDirectory(presence: Presence(bus: bus), standing: { identity, user in
            identity.claims?.revocationKey == "gone" ? .tokenRevoked : user == "tarkin" ? .banned : nil
        })
        let reasons = Mutex<[String: [ConnectionEnd]]>([:])
        func closer(_ name: String) -> @Sendable (ConnectionEnd) -> Void { { reason in reasons.withLock { $0[name, default: []].append(reason) } } }
        _ = connections.open(.websocket, identity: .user(revoked), close: closer("socket"))
        _ = connections.open(.sse, identity: .user(fine), close: closer("stream"))
        // Raw TCP enters as a guest and presents its token later (`auth:`).
        let line = connections.open(.tcp, close: closer("line"))
        connections.authenticated(line, as: .user(revoked), close: closer("line"))
        // A guest's name banned before the guest was named (a WebSocket's `?user=`, `iam:`).
        let guest = connections.open(.websocket, close: closer("guest"))
        connections.identify(guest, user: "tarkin", rooms: [], close: closer("guest"))
        _ = connections.open(.websocket, user: "lando", rooms: [], close: closer("lando"))
        #expect(reasons.withLock { $0 } == ["socket": [.tokenRevoked], "line": [.tokenRevoked], "guest": [.banned]])
        // Ended once: a later scan finds no closer left to call.
        #expect(connections.endInvalid { $0.claims?.revocationKey == "gone" ? .tokenRevoked : nil } == 0)
    }
}
