/// Open connections by the instant their token expires, for
/// ``ConnectionDirectory``: one deadline per instant however many
/// connections hold such a token, and no trace of a connection once it
/// closes. A client that reconnects every second with one token schedules
/// one deadline, not one a connection: a deadline per connection stayed in
/// the scheduler until the token expired (a session lasts 7 days), about
/// 200 bytes for every long poll or reconnection with a token, memory that
/// a signed-in client could grow at will.
///
/// Pure state, kept under the directory's lock.
struct TokenExpiries {
    /// Every instant (ms since the epoch) with a deadline scheduled and not
    /// yet come, with the connections still open that expire then. A set
    /// left empty by closes stays until its instant, so a client that
    /// reconnects with one token reuses it rather than making another.
    private var connections: [Int64: Set<UInt64>] = [:]

    /// Watches connection `id`, whose token expires at `expires`; true when
    /// that instant has no deadline yet, which the caller then schedules.
    mutating func watch(_ id: UInt64, expires: Int64) -> Bool {
        let unscheduled = connections[expires] == nil
        connections[expires, default: []].insert(id)
        return unscheduled
    }

    /// Stops watching connection `id` (it closed, or holds another token now).
    mutating func forget(_ id: UInt64, expires: Int64) {
        connections[expires]?.remove(id)
    }

    /// The deadline for `expires` came: the connections still watched for
    /// it, which are no longer; the instant is forgotten too.
    mutating func due(_ expires: Int64) -> Set<UInt64> {
        connections.removeValue(forKey: expires) ?? []
    }

    /// Instants with a deadline, and connections watched (for tests).
    var counts: (instants: Int, connections: Int) {
        (connections.count, connections.values.reduce(0) { $0 + $1.count })
    }
}
