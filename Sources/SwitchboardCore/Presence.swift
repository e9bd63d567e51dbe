import Synchronization

/// Presence for the whole server: the ``PresenceRegistry`` behind a lock, and
/// every join and leave published on the bus as it happens. Changes are made
/// and published in one critical section, so a user's join and leave reach
/// the bus in the order they happened. Poll leases are ended by one sweep on
/// the server's ``DeadlineScheduler``, scheduled only while leases exist.
public final class Presence: Sendable {
    /// How long a poll keeps its user present.
    public static let pollLeaseSeconds: Double = 30

    private let bus: MessageBus
    private let scheduler: DeadlineScheduler?
    private let registry = Mutex(PresenceRegistry())
    /// When the lease sweep is due, if one is scheduled.
    private let sweepAt = Mutex<UInt64?>(nil)

    /// - Parameter scheduler: runs the lease sweep; nil leaves leases to ``expireLeases(now:)``.
    public init(bus: MessageBus, scheduler: DeadlineScheduler? = nil) {
        self.bus = bus
        self.scheduler = scheduler
    }

    /// A connection of `user` opened in `room`.
    /// Returns whether this made the user appear (a `join` was published),
    /// false when they were already present.
    @discardableResult
    public func connect(user: String, room: String, transport: Transport) -> Bool {
        change { $0.connect(user: user, room: room, transport: transport).map { [$0] } ?? [] } > 0
    }

    /// A connection of `user` in `room` closed.
    public func disconnect(user: String, room: String, transport: Transport) {
        change { $0.disconnect(user: user, room: room, transport: transport).map { [$0] } ?? [] }
    }

    /// A poll by `user`: present for ``pollLeaseSeconds`` from `now` (monotonic ns).
    public func poll(user: String, room: String, transport: Transport, now: UInt64 = DeadlineScheduler.now()) {
        let expiry = now + UInt64(Self.pollLeaseSeconds * 1e9)
        change { $0.renewLease(user: user, room: room, transport: transport, until: expiry).map { [$0] } ?? [] }
        scheduleSweep(at: expiry)
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

    /// Ends a user's poll leases at once (they were kicked).
    public func dropLeases(of user: String) {
        change { $0.dropLeases(of: user) }
    }

    /// Users online in a room, with their transports.
    public func online(in room: String) -> [(user: String, transports: [Transport])] {
        registry.withLock { $0.online(in: room) }
    }

    /// Who is online, by room.
    public func onlineByRoom() -> [String: [String]] {
        registry.withLock { $0.onlineByRoom() }
    }

    @discardableResult
    private func change(_ body: (inout PresenceRegistry) -> [PresenceChange]) -> Int {
        registry.withLock { registry in
            let changes = body(&registry)
            for change in changes {
                // After shutdown has begun the bus refuses: nothing to announce then.
                _ = try? bus.publish(change.draft)
            }
            return changes.count
        }
    }
}
