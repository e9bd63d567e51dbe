/// Who is online where, across every transport. Plain state, not thread-safe:
/// ``Presence`` owns one behind a lock.
///
/// A user is present in a room while they hold at least one connection there
/// (an SSE stream, a TCP client) or a lease that has not expired (a poller is
/// present for 30 s after each poll). The first presence on any transport is
/// a `join`; the end of the last one a `leave`.
public struct PresenceRegistry: Sendable {
    private struct Key: Hashable { var room: String; var user: String }
    /// Each operation finds its entry once, by index (a key's hash is two
    /// names': looked up three times, it was most of a poll's presence).
    private struct Entry {
        var connections: [Transport: Int] = [:]
        var leases: [Transport: UInt64] = [:]
        var isEmpty: Bool { connections.isEmpty && leases.isEmpty }
        var transports: Set<Transport> { Set(connections.keys).union(leases.keys) }
    }

    private var entries: [Key: Entry] = [:]
    /// In how many rooms each user is present.
    private var roomCounts: [String: Int] = [:]

    public init() {}

    /// Counts `change` (one this registry made) toward its user's rooms:
    /// true when it made the user present in their first room, false when
    /// it ended their last, nil otherwise (``Presence/observeUsers(_:)``).
    public mutating func tally(_ change: PresenceChange) -> Bool? {
        let count = roomCounts[change.user, default: 0] + (change.kind == .join ? 1 : -1)
        roomCounts[change.user] = count > 0 ? count : nil
        if change.kind == .join { return count == 1 ? true : nil }
        return count <= 0 ? false : nil
    }

    /// Whether `user` is present in `room`.
    public func contains(user: String, room: String) -> Bool { entries[Key(room: room, user: user)] != nil }

    /// A connection opened. Returns the `join` when the user was not present.
    public mutating func connect(user: String, room: String, transport: Transport) -> PresenceChange? {
        let key = Key(room: room, user: user)
        if let index = entries.index(forKey: key) {
            entries.values[index].connections[transport, default: 0] += 1
            return nil
        }
        entries[key] = Entry(connections: [transport: 1])
        return PresenceChange(room: room, user: user, kind: .join, transport: transport)
    }

    /// A connection closed. Returns the `leave` when it was the user's last presence.
    public mutating func disconnect(user: String, room: String, transport: Transport) -> PresenceChange? {
        guard let index = entries.index(forKey: Key(room: room, user: user)),
              let count = entries.values[index].connections[transport] else { return nil }
        entries.values[index].connections[transport] = count > 1 ? count - 1 : nil
        guard entries.values[index].isEmpty else { return nil }
        entries.remove(at: index)
        return PresenceChange(room: room, user: user, kind: .leave, transport: transport)
    }

    /// A poll: present until `expiry` (monotonic ns). Returns the `join` when new.
    public mutating func renewLease(user: String, room: String, transport: Transport, until expiry: UInt64) -> PresenceChange? {
        let key = Key(room: room, user: user)
        if let index = entries.index(forKey: key) {
            entries.values[index].leases[transport] = max(expiry, entries.values[index].leases[transport] ?? 0)
            return nil
        }
        entries[key] = Entry(leases: [transport: expiry])
        return PresenceChange(room: room, user: user, kind: .join, transport: transport)
    }

    /// Drops leases expired at `now`; returns the resulting `leave`s and the
    /// earliest remaining lease expiry (nil when no lease is left).
    public mutating func expireLeases(now: UInt64) -> (changes: [PresenceChange], nextExpiry: UInt64?) {
        var changes: [PresenceChange] = []
        var next: UInt64?
        for (key, var entry) in entries where !entry.leases.isEmpty {
            entry.leases = entry.leases.filter { $0.value > now }
            if let earliest = entry.leases.values.min() { next = min(next ?? earliest, earliest) }
            if entry.isEmpty {
                entries[key] = nil
                changes.append(PresenceChange(room: key.room, user: key.user, kind: .leave))
            } else {
                entries[key] = entry
            }
        }
        return (changes.sorted { ($0.room, $0.user) < ($1.room, $1.user) }, next)
    }

    /// Ends every poll lease of `user`; returns the resulting `leave`s.
    public mutating func dropLeases(of user: String) -> [PresenceChange] {
        var changes: [PresenceChange] = []
        for (key, var entry) in entries where key.user == user && !entry.leases.isEmpty {
            entry.leases = [:]
            entries[key] = entry.isEmpty ? nil : entry
            if entry.isEmpty { changes.append(PresenceChange(room: key.room, user: user, kind: .leave)) }
        }
        return changes.sorted { $0.room < $1.room }
    }

    /// A `join` for every user present now, in room and user order: what a
    /// node announces again when its claims on a shared store were lost.
    public func joinsForEveryone() -> [PresenceChange] {
        entries.map { PresenceChange(room: $0.key.room, user: $0.key.user, kind: .join, transport: $0.value.transports.min()) }
            .sorted { ($0.room, $0.user) < ($1.room, $1.user) }
    }

    /// Those of `users` (lowercased names) present in any room here: one pass, nothing built but the answer.
    public func present(among users: Set<String>) -> Set<String> {
        var found = Set<String>()
        for key in entries.keys {
            let user = key.user.lowercased()
            if users.contains(user) { found.insert(user) }
        }
        return found
    }

    /// Every present user in every room, with their transports.
    public func everyone() -> [(room: String, user: String, transports: Set<Transport>)] {
        entries.map { ($0.key.room, $0.key.user, $0.value.transports) }
    }
}
