import Synchronization

/// How fast one client may bring new rooms into being (a room exists once
/// a message is stored in it; a join is one). A client that names a room
/// the server does not know takes a token from its bucket: the signed-in
/// user's, or a guest's address's (guests choose their names freely, so a
/// name counts for nothing). Known rooms cost nothing. Without it, one
/// raw TCP guest sent `join:` to 10,000 new rooms in 3.2 s, each kept for
/// good with its join and leave.
///
/// A room is paid for once: until its first message is stored, others
/// naming it (and its payer's own join announcement) cost nothing, so
/// guests behind one address joining a new room during a slow commit are
/// not refused.
public final class RoomCreationLimiter: Sendable {
    private let buckets: PublishRateLimiter
    private let isKnown: @Sendable (String) -> Bool
    /// Rooms paid for (a stored one is known first, and never looked up
    /// here); emptied when it holds `rememberedRooms`, so a client naming
    /// ever new rooms pays for each.
    private let paidFor = Mutex<Set<String>>([])
    private let rememberedRooms: Int

    /// - Parameters:
    ///   - burst: new rooms per key at once, and in 100 s (SPEC: 100, then one a second).
    ///   - isKnown: whether a room has a stored message (``MessageBus/isKnownRoom(_:)``).
    ///   - clock: monotonic nanoseconds.
    ///   - rememberedRooms: most rooms kept as paid for while their first message is stored.
    public init(burst: Double, isKnown: @escaping @Sendable (String) -> Bool,
                clock: @escaping @Sendable () -> UInt64 = DeadlineScheduler.now, rememberedRooms: Int = 1_024) {
        buckets = PublishRateLimiter(rate: burst / 100, burst: burst, clock: clock)
        self.isKnown = isKnown
        self.rememberedRooms = max(1, rememberedRooms)
    }

    /// Counts `room` against `key` when it is new (`key` is worked out only then:
    /// on every publish, a known room costs one lookup).
    /// - Throws: `rate_limited` (429) with the seconds until one more is allowed.
    public func admit(_ room: String, key: @autoclosure () -> String) throws(SwitchboardError) {
        guard !isKnown(room), !paidFor.withLock({ $0.contains(room) }) else { return }
        try take(key()) { "Too many new rooms; try again in \($0) s or use one that exists." }
        paidFor.withLock { rooms in
            if rooms.count >= rememberedRooms { rooms.removeAll(keepingCapacity: true) }
            rooms.insert(room)
        }
    }

    /// Counts a room the server will name (a conversation) against `key`.
    /// - Throws: `rate_limited` (429) with the seconds until one more is allowed.
    public func admitNamedByServer(key: String) throws(SwitchboardError) {
        try take(key) { "Too many new conversations; try again in \($0) s." }
    }

    /// One new room from `key`'s bucket, or `rate_limited` saying `message` of the seconds to wait.
    private func take(_ key: String, _ message: (Int) -> String) throws(SwitchboardError) {
        guard let wait = buckets.take(key) else { return }
        throw SwitchboardError(.rateLimited, code: "rate_limited", message: message(wait), retryAfterSeconds: wait)
    }
}
