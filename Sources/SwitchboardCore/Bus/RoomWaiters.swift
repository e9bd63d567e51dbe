/// The subscribers parked for one room (or for every room), in the order
/// they parked, as ``ParkedSubscribers`` keeps them. Entries are only
/// appended and taken whole: one taken out another way (a deadline, a
/// cancellation, a wake-up through another of its rooms) stays behind,
/// stale, and is skipped, then dropped when the array would grow. Only
/// touched under the bus's lock, like ``ParkingSpot``.
final class RoomWaiters: @unchecked Sendable {
    /// One park: the spot and its generation at that park.
    struct Entry {
        let spot: ParkingSpot
        let generation: UInt32
    }

    let room: String
    // `@exclusivity(unchecked)` below: touched under the bus's lock
    // (docs/ARCHITECTURE.md, "Exclusivity checked where it can fail").
    @exclusivity(unchecked) var entries: [Entry] = []
    /// How many of ``entries`` are current: the room's index is dropped when
    /// none is (a room nobody waits for costs nothing).
    @exclusivity(unchecked) var live = 0
    /// False once dropped from the index: a spot's kept reference to it is then no use.
    @exclusivity(unchecked) var attached = true

    init(room: String) { self.room = room }

    /// Appends a park, first dropping the stale entries when the array is
    /// full, so that it never holds more than twice the room's waiters.
    func append(_ entry: Entry) {
        if entries.count == entries.capacity, entries.count >= 8 {
            entries.removeAll { !$0.spot.holds($0) }
        }
        entries.append(entry)
        live += 1
    }
}
