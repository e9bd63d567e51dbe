import Synchronization

/// Every open connection on every transport, opened once and closed once:
/// the one place that keeps the counts per transport, announces presence
/// (a named user's connection joins its rooms) and knows how to close a
/// user's connections when an administrator kicks or bans them, when their
/// token is revoked, and when it expires (one deadline on the server's
/// scheduler per instant a token in use expires, ``TokenExpiries``; no
/// timer per connection).
///
/// Short polls are not connections: a short-poll client counts as connected
/// for 30 s after each poll (``polled(client:now:)``).
public final class ConnectionDirectory: Sendable {
    /// Identifies one open connection.
    public struct ID: Hashable, Sendable {
        fileprivate let value: UInt64
    }

    struct Entry {
        var transport: Transport
        var user: String?
        var rooms: [String]
        var identity: Identity
        /// The one room it reads, when it reads exactly one (nil: several,
        /// or every room its reader may see): all that losing a
        /// conversation needs, kept without a set per connection.
        var soleRoom: String?
        /// Ends the connection from any thread, saying why; nil once ended.
        var close: (@Sendable (ConnectionEnd) -> Void)?
    }

    struct State {
        var next: UInt64 = 0
        var entries: [UInt64: Entry] = [:]
        var open: [Int] = Array(repeating: 0, count: Transport.allCases.count)
        var pollers: [String: UInt64] = [:]
        var expiries = TokenExpiries()
    }

    /// How long a short-poller counts as connected after a poll.
    public static let pollerWindowNanoseconds: UInt64 = 30_000_000_000

    /// Told of every connection's user and rooms.
    public let presence: Presence
    private let scheduler: DeadlineScheduler?
    /// Gives back what closed streaming connections freed (nil without a scheduler).
    private let memory: MemoryReturn?
    private let clock: @Sendable () -> Int64
    /// Why a connection opened as an identity, and going by a name, must end
    /// now (the server's ``AccessControl/ending(_:named:)``), asked again once it is entered.
    private let standing: @Sendable (Identity, String?) -> ConnectionEnd?
    let state = Mutex(State())

    /// - Parameters:
    ///   - scheduler: ends connections whose token expires, and gives back
    ///     memory after streams close; nil: neither.
    ///   - memoryReturnDelay: seconds after a stream's close that memory is given back.
    ///   - clock: milliseconds since the epoch (tokens' expiry is wall-clock time).
    ///   - standing: why a connection opened as an identity, going by a
    ///     name, must end now, or nil while it may stay
    ///     (``AccessControl/ending(_:named:)``). A connection is checked when
    ///     it was decided who it is, and entered here later (a WebSocket
    ///     after its handshake, once SwiftNIO has its socket): a sign-out or
    ///     a ban in between found it nowhere, so each connection with a token
    ///     or a name is asked again once it is entered.
    public init(presence: Presence, scheduler: DeadlineScheduler? = nil, memoryReturnDelay: Double = 2,
                clock: @escaping @Sendable () -> Int64 = MessageBus.systemClock,
                standing: @escaping @Sendable (Identity, String?) -> ConnectionEnd? = { _, _ in nil }) {
        self.standing = standing
        self.presence = presence
        self.scheduler = scheduler
        memory = scheduler.map { MemoryReturn(scheduler: $0, delay: memoryReturnDelay) }
        self.clock = clock
    }

    /// A connection opened. With a `user`, that user is now present in
    /// `rooms` on `transport`; `close` ends the connection when the user is
    /// kicked or banned or `identity`'s token ends. Call ``close(_:)``
    /// exactly when it ends.
    /// `soleRoom` is the one room it reads, when it reads exactly one (nil:
    /// several, or every room it may see): a connection that reads only a
    /// conversation its user leaves is ended.
    public func open(_ transport: Transport, user: String? = nil, rooms: [String] = [], identity: Identity = .guest,
                     soleRoom: String? = nil, close: (@Sendable (ConnectionEnd) -> Void)? = nil) -> ID {
        let expires = watchedExpiry(identity)
        let (id, schedule) = state.withLock { state in
            state.next += 1
            state.entries[state.next] = Entry(transport: transport, user: nil, rooms: [], identity: identity,
                                              soleRoom: soleRoom, close: close)
            state.open[transport.ordinal] += 1
            return (ID(value: state.next), expires.map { state.expiries.watch(state.next, expires: $0) } ?? false)
        }
        if schedule, let expires { scheduleExpiry(expires) }
        if let user { identify(id, user: user, rooms: rooms, close: close) } else { endIfNoLongerValid(id, identity, nil) }
        return id
    }

    /// A connection that nothing but its own client and the shutdown can end
    /// (no user, no token that runs out, a public room: an anonymous long
    /// poll) is only counted: no entry, no closer. Pair with ``closeCounted(_:)``.
    public func openCounted(_ transport: Transport) {
        state.withLock { $0.open[transport.ordinal] += 1 }
    }

    /// A connection opened with ``openCounted(_:)`` ended.
    public func closeCounted(_ transport: Transport) {
        state.withLock { $0.open[transport.ordinal] -= 1 }
    }

    /// The connection now holds `identity` (raw TCP's `auth:`), which `close` ends.
    public func authenticated(_ id: ID, as identity: Identity, close: @escaping @Sendable (ConnectionEnd) -> Void) {
        let expires = watchedExpiry(identity)
        let schedule = state.withLock { state -> Bool in
            guard let entry = state.entries[id.value] else { return false }
            if let previous = watchedExpiry(entry.identity) { state.expiries.forget(id.value, expires: previous) }
            state.entries[id.value]!.identity = identity
            state.entries[id.value]!.close = close
            return expires.map { state.expiries.watch(id.value, expires: $0) } ?? false
        }
        if schedule, let expires { scheduleExpiry(expires) }
        endIfNoLongerValid(id, identity, nil)
    }

    /// Ends the connection just entered as `identity`, going by `user`, if
    /// it must end now: a sign-out or a ban that scanned the directory before it was here.
    private func endIfNoLongerValid(_ id: ID, _ identity: Identity, _ user: String?) {
        guard identity.claims != nil || user != nil, let reason = standing(identity, user) else { return }
        end(id, if: { $0.identity == identity }, reason: reason)
    }

    /// When `identity`'s token expires, if this directory ends connections then.
    private func watchedExpiry(_ identity: Identity) -> Int64? {
        scheduler == nil ? nil : identity.claims?.expires
    }

    /// One deadline for every connection whose token expires at `expires`
    /// (ms since the epoch, the wall clock's; the scheduler's clock is
    /// monotonic, so a deadline that comes early is set again).
    private func scheduleExpiry(_ expires: Int64) {
        scheduler?.schedule(after: Double(max(0, expires - clock())) / 1000) { [weak self] in
            guard let self else { return }
            guard clock() >= expires else { return scheduleExpiry(expires) }
            for id in state.withLock({ $0.expiries.due(expires) }) {
                end(ID(value: id), if: { $0.identity.claims?.expires == expires }, reason: .tokenExpired)
            }
        }
    }

    /// Token expiries with a deadline, and connections watched (for tests).
    var expiryCounts: (instants: Int, connections: Int) { state.withLock { $0.expiries.counts } }

    /// An open, anonymous connection is now `user` in `rooms` (e.g. after
    /// `iam:`). `announced`, if given, is told for each room whether a `join`
    /// was published there (false: the user was present already, on another
    /// connection or node); see ``Presence/connect(user:room:transport:announced:)``.
    public func identify(_ id: ID, user: String, rooms: [String], close: (@Sendable (ConnectionEnd) -> Void)?,
                         announced: (@Sendable (_ room: String, _ announced: Bool) -> Void)? = nil) {
        guard let (transport, identity) = state.withLock({ state -> (Transport, Identity)? in
            guard state.entries[id.value] != nil else { return nil }
            state.entries[id.value]!.user = user
            state.entries[id.value]!.rooms = rooms
            state.entries[id.value]!.close = close
            return (state.entries[id.value]!.transport, state.entries[id.value]!.identity)
        }) else { return }
        for room in rooms {
            var told: (@Sendable (Bool) -> Void)?
            if let announced { told = { announced(room, $0) } }
            presence.connect(user: user, room: room, transport: transport, announced: told)
        }
        endIfNoLongerValid(id, identity, user)
    }

    /// The connection reads `room`, and only it, from now on (raw TCP's `join:`).
    public func follow(_ id: ID, only room: String) {
        state.withLock { state in
            if state.entries[id.value] != nil { state.entries[id.value]!.soleRoom = room }
        }
    }

    /// Conversation membership changed: every connection of a user who
    /// lost a conversation and reads only that room is told
    /// (``ConnectionEnd/removed(room:)``): a stream ends, a long poll is
    /// answered, a raw TCP client moves to `lobby` (and stays open). Streams
    /// of several rooms stay open; their reader's ``RoomAccess`` already
    /// stopped the room's messages.
    public func membershipChanged(_ changes: [ConversationChange]) {
        for change in changes where !change.isMember {
            let key = change.user.lowercased()
            // The closer stays: each transport decides what losing the room
            // means (raw TCP stays open), and ending twice is a no-op everywhere.
            let told = state.withLock { state in
                state.entries.values.filter { $0.identity.user?.lowercased() == key && $0.soleRoom == change.room }.compactMap(\.close)
            }
            for close in told { close(.removed(room: change.room)) }
        }
    }

    /// The connection's user moved to other rooms.
    public func move(_ id: ID, to rooms: [String]) {
        guard let (entry, previous) = state.withLock({ state -> (Entry, [String])? in
            guard let entry = state.entries[id.value] else { return nil }
            state.entries[id.value]!.rooms = rooms
            return (entry, entry.rooms)
        }), let user = entry.user else { return }
        for room in previous where !rooms.contains(room) { presence.disconnect(user: user, room: room, transport: entry.transport) }
        for room in rooms where !previous.contains(room) { presence.connect(user: user, room: room, transport: entry.transport) }
    }

    /// How many times closed streams' memory was given back (for tests).
    var memoryTrims: Int { memory?.count ?? 0 }

    /// The connection ended. Safe to call more than once.
    public func close(_ id: ID) {
        guard let entry = state.withLock({ state -> Entry? in
            guard let entry = state.entries.removeValue(forKey: id.value) else { return nil }
            state.open[entry.transport.ordinal] -= 1
            if let expires = watchedExpiry(entry.identity) { state.expiries.forget(id.value, expires: expires) }
            return entry
        }) else { return }
        // A socket that streams may have queued much (a client that did not
        // read), and thousands of SSE streams leave libmicrohttpd's pools: return it.
        if entry.transport.streams { memory?.connectionClosed() }
        if let user = entry.user {
            for room in entry.rooms { presence.disconnect(user: user, room: room, transport: entry.transport) }
        }
    }

    private func end(_ id: ID, if condition: (Entry) -> Bool, reason: ConnectionEnd) {
        let close = state.withLock { state -> (@Sendable (ConnectionEnd) -> Void)? in
            guard let entry = state.entries[id.value], condition(entry), let close = entry.close else { return nil }
            state.entries[id.value]!.close = nil
            return close
        }
        close?(reason)
    }
}
