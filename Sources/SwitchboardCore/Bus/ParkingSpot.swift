/// A subscriber's place on the bus while it waits, kept by the subscriber
/// so that parking and waking need no lookup by identity: a park appends
/// one entry to its room's waiters, a wake-up takes the room's entries
/// whole, and an entry left behind in another index (a several-room
/// subscriber woken by one of them, one taken out by a deadline) is known
/// stale by its generation. Every field is the bus's: read and written
/// only under its lock (``ParkedSubscribers``).
public final class ParkingSpot: @unchecked Sendable {
    // `@exclusivity(unchecked)` below: touched under the bus's lock
    // (docs/ARCHITECTURE.md, "Exclusivity checked where it can fail").
    /// Bumped at every park: an entry of an earlier park is stale.
    @exclusivity(unchecked) var generation: UInt32 = 0
    /// The subscriber while it is parked (nil otherwise): the bus holds it
    /// until it is taken out.
    @exclusivity(unchecked) var parked: (any Subscriber)?
    /// The rooms it waits for while parked.
    @exclusivity(unchecked) var filter: RoomFilter = .all
    /// Its one room's waiters, kept from the last park: a subscriber parking
    /// again for the same room appends to them without looking the room up.
    @exclusivity(unchecked) var waiters: RoomWaiters?
    /// The room as the subscriber's own filter spells it when ``waiters``
    /// was kept: its next park compares its own string with itself, which
    /// Swift answers from the strings' bits, not byte by byte.
    @exclusivity(unchecked) var waitersRoom = ""

    public init() {}

    /// The waiters kept from its last park, when they are still `room`'s index.
    @inline(__always)
    func keptWaiters(for room: String) -> RoomWaiters? {
        guard let waiters, waiters.attached, waitersRoom == room else { return nil }
        return waiters
    }

    /// Keeps `waiters`, `room`'s index, for its next park.
    @inline(__always)
    func keep(_ waiters: RoomWaiters, for room: String) {
        self.waiters = waiters
        waitersRoom = room
    }

    /// Whether `entry` is this spot's current park.
    @inline(__always)
    func holds(_ entry: RoomWaiters.Entry) -> Bool {
        parked != nil && entry.generation == generation
    }
}
