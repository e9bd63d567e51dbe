import Dispatch
import Synchronization

/// Presence for the whole server: the ``PresenceRegistry`` behind a lock, and
/// every join and leave published on the bus as it happens. Changes are made
/// and queued for the store in one critical section, so a user's join and
/// leave reach the bus in the order they happened; nobody waits for their
/// commit (many connections' changes share one group commit). Poll leases are ended by one sweep on
/// the server's ``DeadlineScheduler``, scheduled only while leases exist.
public final class Presence: Sendable {
    /// How long a poll keeps its user present.
    public static let pollLeaseSeconds: Double = 30

    private let bus: MessageBus
    private let scheduler: DeadlineScheduler?
    /// The other nodes on a shared store, whose users are listed too.
    private let cluster: (any Cluster)?
    private let registry = Mutex(PresenceRegistry())
    /// When the lease sweep is due, if one is scheduled.
    private let sweepAt = Mutex<UInt64?>(nil)
    /// Told when a user comes online or goes offline (``observeUsers(_:)``).
    private let usersObserver = Mutex<(@Sendable (String, Bool) -> Void)?>(nil)

    /// - Parameters:
    ///   - scheduler: runs the lease sweep; nil leaves leases to ``expireLeases(now:)``.
    ///   - cluster: the other nodes on a shared store; their users are listed
    ///     with this node's. (Whether a change is announced is the store's
    ///     call: see ``MessageStore/commit(_:timestamp:)``.)
    public init(bus: MessageBus, scheduler: DeadlineScheduler? = nil, cluster: (any Cluster)? = nil) {
        self.bus = bus
        self.scheduler = scheduler
        self.cluster = cluster
    }

    /// A connection of `user` opened in `room`. `announced`, if given, is
    /// told (on the commit thread, or at once when the user was present here
    /// already) whether this made the user appear: false when they were
    /// already present, here or on another node, and no `join` was published.
    public func connect(user: String, room: String, transport: Transport,
                        announced: (@Sendable (Bool) -> Void)? = nil) {
        let queued = registry.withLock { registry -> Bool in
            guard let change = registry.connect(user: user, room: room, transport: transport) else { return false }
            tell(registry.tally(change), change.user)
            // A completion only for a caller that asks: a join is on the
            // path of every connection's opening.
            if let announced {
                bus.announce(change.draft) { result in
                    if case .success(.some) = result { announced(true) } else { announced(false) }
                }
            } else {
                bus.announce(change.draft)
            }
            return true
        }
        if !queued { announced?(false) }
    }

    /// Whether `user` is present in `room` on this node.
    public func isPresent(user: String, room: String) -> Bool {
        registry.withLock { $0.contains(user: user, room: room) }
    }

    /// A connection of `user` in `room` closed.
    public func disconnect(user: String, room: String, transport: Transport) {
        change { $0.disconnect(user: user, room: room, transport: transport).map { [$0] } ?? [] }
    }

    /// A poll by `user`: present for ``pollLeaseSeconds`` from `now`
    /// (monotonic ns). Returns whether this queued a `join` (the user was
    /// not present): a poll that wants to see its own join answers after
    /// ``MessageBus/afterQueuedCommits(_:)``.
    @discardableResult
    public func poll(user: String, room: String, transport: Transport, now: UInt64 = DeadlineScheduler.now()) -> Bool {
        let expiry = now + UInt64(Self.pollLeaseSeconds * 1e9)
        var joined = false
        change { registry in
            let change = registry.renewLease(user: user, room: room, transport: transport, until: expiry)
            joined = change != nil
            return change.map { [$0] } ?? []
        }
        scheduleSweep(at: expiry)
        return joined
    }

    private func scheduleSweep(at deadline: UInt64) {
        guard let scheduler else { return }
        let due = sweepAt.withLock { scheduled -> Bool in
            if let scheduled, scheduled <= deadline { return false }
            scheduled = deadline
            return true
        }
        guard due else { return }
        scheduler.schedule(at: deadline) { [weak self] in
            guard let self else { return }
            self.sweepAt.withLock { $0 = nil }
            if let next = self.expireLeases(now: DeadlineScheduler.now()) { self.scheduleSweep(at: next) }
        }
    }

    /// Ends expired poll leases; returns when the next one expires, if any.
    public func expireLeases(now: UInt64) -> UInt64? {
        var next: UInt64?
        change { registry in
            let result = registry.expireLeases(now: now)
            next = result.nextExpiry
            return result.changes
        }
        return next
    }

    /// Claims every present user again (a `join` unless the store says they
    /// are present elsewhere), after a shared store lost this node's claims.
    public func reclaim() {
        change(counted: false) { $0.joinsForEveryone() }  // announced again, not new: nobody came online
    }

    /// Ends a user's poll leases at once (they were kicked).
    public func dropLeases(of user: String) {
        change { $0.dropLeases(of: user) }
    }

    /// Everyone online on every node, by room, each user with their
    /// transports, in user order: one read of the other nodes, so a caller
    /// that needs several views (the admin's stats) takes this once.
    public func onlineEverywhere() -> [String: [(user: String, transports: [Transport])]] {
        var rooms: [String: [String: Set<Transport>]] = [:]
        for entry in registry.withLock({ $0.everyone() }) {
            rooms[entry.room, default: [:]][entry.user, default: []].formUnion(entry.transports)
        }
        for entry in elsewhere() {
            rooms[entry.room, default: [:]][entry.user, default: []].formUnion(entry.transport.map { [$0] } ?? [])
        }
        return rooms.mapValues { users in users.map { ($0.key, $0.value.sorted()) }.sorted { $0.user < $1.user } }
    }

    /// Those of `users` (lowercased names) online in any room on any node:
    /// this node's registry and the other nodes' claims as last read, in one
    /// pass each (what a notification asks of every member at once).
    public func online(among users: Set<String>) -> Set<String> {
        guard !users.isEmpty else { return [] }
        var found = registry.withLock { $0.present(among: users) }
        for entry in elsewhere() where users.contains(entry.user.lowercased()) { found.insert(entry.user.lowercased()) }
        return found
    }

    /// Users online in a room, with their transports, on every node.
    public func online(in room: String) -> [(user: String, transports: [Transport])] {
        onlineEverywhere()[room] ?? []
    }

    /// Who is online in `room`, by name: this node's users as they are now,
    /// merged with the other nodes' as last read (nothing waits for the database).
    public func names(in room: String) -> [String] {
        let here = Set(registry.withLock { $0.everyone() }.filter { $0.room == room }.map(\.user))
        return here.union(elsewhere().filter { $0.room == room }.map(\.user)).sorted()
    }

    /// Who is online, by room, on every node.
    public func onlineByRoom() -> [String: [String]] {
        onlineEverywhere().mapValues { $0.map(\.user) }
    }

    /// Tells `observer`, from now on, when a user comes online (true: their
    /// first room on this node) or goes offline (false: their last), unless
    /// another node has them present as last read. Called in the order the
    /// changes happen, under presence's lock: it must only hand the news on.
    public func observeUsers(_ observer: @escaping @Sendable (_ user: String, _ online: Bool) -> Void) {
        usersObserver.withLock { $0 = observer }
    }

    /// Tells the observer of a user's `flip` (``PresenceRegistry/tally(_:)``), if any.
    private func tell(_ flip: Bool?, _ user: String) {
        guard let flip, let observer = usersObserver.withLock({ $0 }) else { return }
        if cluster != nil, elsewhere().contains(where: { $0.user == user }) { return }
        observer(user, flip)
    }

    /// The other nodes' users; none when the cluster cannot be read (the
    /// answer is then this node's alone, rather than an error).
    private func elsewhere() -> [ClusterPresence] {
        cluster?.presenceElsewhere() ?? []
    }

    private func change(counted: Bool = true, _ body: (inout PresenceRegistry) -> [PresenceChange]) {
        // Queued under the lock, so the store takes them in the registry's
        // order; after shutdown has begun the bus refuses them.
        registry.withLock { registry in
            for change in body(&registry) {
                if counted { tell(registry.tally(change), change.user) }
                if change.kind == .leave { bus.announceLeave(change.draft) } else { bus.announce(change.draft) }
            }
        }
    }
}
