/// The waiters parked on a bus, indexed by the rooms they wait for.
/// Not thread-safe: lives inside ``MessageBus``'s lock.
struct ParkedWaiters {
    private var entries: [ObjectIdentifier: (waiter: any MessageWaiter, filter: RoomFilter)] = [:]
    private var byRoom: [String: Set<ObjectIdentifier>] = [:]
    private var anyRoom: Set<ObjectIdentifier> = []

    var count: Int { entries.count }

    mutating func insert(_ waiter: any MessageWaiter, filter: RoomFilter) {
        let key = ObjectIdentifier(waiter)
        _ = remove(key: key)  // parked again, perhaps for other rooms: no stale index entries
        entries[key] = (waiter, filter)
        switch filter {
        case .all: anyRoom.insert(key)
        case .rooms(let rooms):
            for room in rooms { byRoom[room, default: []].insert(key) }
        }
    }

    /// Removes and returns the waiter if it is parked.
    mutating func remove(_ waiter: any MessageWaiter) -> (any MessageWaiter)? {
        remove(key: ObjectIdentifier(waiter))
    }

    /// Removes and returns every waiter interested in `room`.
    mutating func removeAll(interestedIn room: String) -> [any MessageWaiter] {
        let keys = anyRoom.union(byRoom[room] ?? [])
        return keys.compactMap { remove(key: $0) }
    }

    /// Removes and returns every waiter passing `predicate`.
    mutating func removeAll(where predicate: (any MessageWaiter) -> Bool) -> [any MessageWaiter] {
        let keys = entries.filter { predicate($0.value.waiter) }.map(\.key)
        return keys.compactMap { remove(key: $0) }
    }

    private mutating func remove(key: ObjectIdentifier) -> (any MessageWaiter)? {
        guard let entry = entries.removeValue(forKey: key) else { return nil }
        switch entry.filter {
        case .all: anyRoom.remove(key)
        case .rooms(let rooms):
            for room in rooms {
                byRoom[room]?.remove(key)
                if byRoom[room]?.isEmpty == true { byRoom[room] = nil }
            }
        }
        return entry.waiter
    }
}
