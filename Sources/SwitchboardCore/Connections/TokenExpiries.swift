/// Open connections by the instant their token expires, for
/// ``ConnectionDirectory``: one deadline per instant however many
/// connections hold such a token, kept until that instant, and no trace of
/// a connection once it closes. A client that reconnects every second with
/// one token schedules one deadline, not one a connection: a deadline per
/// connection stayed in the scheduler until the token expired (a session
/// lasts 7 days), so every long poll or reconnection with a token left
/// about 200 bytes behind for days, memory that a signed-in client could
/// grow at will.
///
/// Pure state, kept under the directory's lock.
struct TokenExpiries {
    /// Connections still open by their token's expiry (ms since the epoch).
    private var connections: [Int64: Set<UInt64>] = [:]
    /// The instants with a deadline scheduled and not yet come.
    private var scheduled: Set<Int64> = []

    /// Watches connection `id`, whose token expires at `expires`; true when
    /// that instant has no deadline yet, which the caller then schedules.
    mutating func watch(_ id: UInt64, expires: Int64) -> Bool {
        connections[expires, default: []].insert(id)
        return scheduled.insert(expires).inserted
    }

    /// Stops watching connection `id` (it closed, or holds another token now).
    mutating func forget(_ id: UInt64, expires: Int64) {
        guard var ids = connections.removeValue(forKey: expires) else { return }
        ids.remove(id)
        if !ids.isEmpty { connections[expires] = ids }
    }

    /// The deadline for `expires` came: the connections still watched for
    /// it, which are no longer; the instant is forgotten too.
    mutating func due(_ expires: Int64) -> Set<UInt64> {
        scheduled.remove(expires)
        return connections.removeValue(forKey: expires) ?? []
    }

    /// Instants with a deadline, and connections watched (for tests).
    var counts: (instants: Int, connections: Int) {
        (scheduled.count, connections.values.reduce(0) { $0 + $1.count })
    }
}
