/// The subscribers parked on a bus, indexed by the rooms they wait for.
/// Not thread-safe: lives inside ``MessageBus``'s lock.
struct ParkedSubscribers {
    private var entries: [ObjectIdentifier: (subscriber: any Subscriber, filter: RoomFilter)] = [:]
    private var byRoom: [String: Set<ObjectIdentifier>] = [:]
    private var anyRoom: Set<ObjectIdentifier> = []
    /// The room index a publish emptied last, kept with its capacity for the
    /// next room to be filled (as a rule the same room, its subscribers
    /// parking again): one set, not one grown from nothing a publish.
    private var spare: Set<ObjectIdentifier> = []

    var count: Int { entries.count }

    mutating func insert(_ subscriber: any Subscriber, filter: RoomFilter) {
        let key = ObjectIdentifier(subscriber)
        // Parked again, perhaps for other rooms: no stale index entries
        // (one lookup for both, not a removal and then an insertion).
        if let earlier = entries.updateValue((subscriber, filter), forKey: key) {
            removeIndexes(key, filter: earlier.filter)
        }
        switch filter {
        case .all: anyRoom.insert(key)
        case .room(let room): insertIndex(key, room: room)
        case .rooms(let rooms):
            for room in rooms { insertIndex(key, room: room) }
        }
    }

    private mutating func insertIndex(_ key: ObjectIdentifier, room: String) {
        if let index = byRoom.index(forKey: room) {
            byRoom.values[index].insert(key)
        } else {
            var keys: Set<ObjectIdentifier> = []
            swap(&keys, &spare)
            keys.insert(key)
            byRoom[room] = keys
        }
    }

    /// Removes and returns the subscriber if it is parked.
    mutating func remove(_ subscriber: any Subscriber) -> (any Subscriber)? {
        remove(key: ObjectIdentifier(subscriber))
    }

    /// Removes every subscriber interested in `message` and appends it to `woken`.
    /// The room's index is taken whole (a publish to a busy room wakes
    /// thousands: one hash removal each, not three, and no set copied); only a
    /// subscriber waiting for several rooms is looked up in its others. A
    /// conversation's message wakes only the every-room readers who may see it.
    mutating func removeAll(interestedIn message: EncodedMessage, into woken: inout [any Subscriber]) {
        let room = message.message.room
        var inRoom = byRoom.removeValue(forKey: room) ?? []
        if message.isPrivate {
            for key in anyRoom {
                guard let entry = entries[key], entry.subscriber.access.sees(message) else { continue }
                entries.removeValue(forKey: key)
                anyRoom.remove(key)
                woken.append(entry.subscriber)
            }
        } else {
            for key in anyRoom {
                if let entry = entries.removeValue(forKey: key) { woken.append(entry.subscriber) }
            }
            anyRoom.removeAll()
        }
        for key in inRoom {
            guard let entry = entries.removeValue(forKey: key) else { continue }
            if case .rooms(let rooms) = entry.filter, rooms.count > 1 {
                for other in rooms where other != room { removeIndex(key, room: other) }
            }
            woken.append(entry.subscriber)
        }
        if inRoom.capacity > spare.capacity {
            inRoom.removeAll(keepingCapacity: true)
            spare = inRoom
        }
    }

    /// Removes and returns every subscriber passing `predicate`.
    mutating func removeAll(where predicate: (any Subscriber) -> Bool) -> [any Subscriber] {
        let keys = entries.filter { predicate($0.value.subscriber) }.map(\.key)
        return keys.compactMap { remove(key: $0) }
    }

    private mutating func remove(key: ObjectIdentifier) -> (any Subscriber)? {
        guard let entry = entries.removeValue(forKey: key) else { return nil }
        removeIndexes(key, filter: entry.filter)
        return entry.subscriber
    }

    private mutating func removeIndexes(_ key: ObjectIdentifier, filter: RoomFilter) {
        switch filter {
        case .all: anyRoom.remove(key)
        case .room(let room): removeIndex(key, room: room)
        case .rooms(let rooms):
            for room in rooms { removeIndex(key, room: room) }
        }
    }

    private mutating func removeIndex(_ key: ObjectIdentifier, room: String) {
        guard let index = byRoom.index(forKey: room) else { return }
        byRoom.values[index].remove(key)
        if byRoom.values[index].isEmpty { byRoom.remove(at: index) }
    }
}
