/// The subscribers parked on a bus, indexed by the rooms they wait for.
/// Not thread-safe: lives inside ``MessageBus``'s lock.
struct ParkedSubscribers {
    private var entries: [ObjectIdentifier: (subscriber: any Subscriber, filter: RoomFilter)] = [:]
    private var byRoom: [String: Set<ObjectIdentifier>] = [:]
    private var anyRoom: Set<ObjectIdentifier> = []

    var count: Int { entries.count }

    mutating func insert(_ subscriber: any Subscriber, filter: RoomFilter) {
        let key = ObjectIdentifier(subscriber)
        _ = remove(key: key)  // parked again, perhaps for other rooms: no stale index entries
        entries[key] = (subscriber, filter)
        switch filter {
        case .all: anyRoom.insert(key)
        case .rooms(let rooms):
            for room in rooms { byRoom[room, default: []].insert(key) }
        }
    }

    /// Removes and returns the subscriber if it is parked.
    mutating func remove(_ subscriber: any Subscriber) -> (any Subscriber)? {
        remove(key: ObjectIdentifier(subscriber))
    }

    /// Removes and returns every subscriber interested in `room`.
    mutating func removeAll(interestedIn room: String) -> [any Subscriber] {
        let keys = anyRoom.union(byRoom[room] ?? [])
        return keys.compactMap { remove(key: $0) }
    }

    /// Removes and returns every subscriber passing `predicate`.
    mutating func removeAll(where predicate: (any Subscriber) -> Bool) -> [any Subscriber] {
        let keys = entries.filter { predicate($0.value.subscriber) }.map(\.key)
        return keys.compactMap { remove(key: $0) }
    }

    private mutating func remove(key: ObjectIdentifier) -> (any Subscriber)? {
        guard let entry = entries.removeValue(forKey: key) else { return nil }
        switch entry.filter {
        case .all: anyRoom.remove(key)
        case .rooms(let rooms):
            for room in rooms {
                byRoom[room]?.remove(key)
                if byRoom[room]?.isEmpty == true { byRoom[room] = nil }
            }
        }
        return entry.subscriber
    }
}
