/// The subscribers parked on a bus, indexed by the rooms they wait for.
/// Not thread-safe: lives inside ``MessageBus``'s lock.
///
/// Each subscriber carries its ``ParkingSpot``: parking appends one entry
/// to its room's ``RoomWaiters`` (found through the spot when it parks for
/// the same room again, as a stream does after every delivery), and a
/// publish takes the room's entries whole. No subscriber is hashed on the
/// way: a delivery's park and wake-up cost an append and a generation check.
struct ParkedSubscribers {
    private var byRoom: [String: RoomWaiters] = [:]
    private let anyRoom = RoomWaiters(room: "")
    /// The entries a publish took last, kept with their capacity for the
    /// next publish (as a rule the same room's, its subscribers parked again).
    private var spare: [RoomWaiters.Entry] = []
    /// The room index found or made last: a new long poll (a new spot, with
    /// no index kept) parks where the last one did, as a rule, and its
    /// room's name is then compared, not hashed (a lookup in ``byRoom`` was
    /// 640 instructions of a 30,000-instruction poll). Used while it is
    /// ``RoomWaiters/attached``, as a spot's kept index is.
    private var lastWaiters: RoomWaiters?

    private(set) var count = 0

    /// How many rooms have an index (tests: a room nobody waits for has none).
    var indexedRooms: Int { byRoom.count }

    /// How many entries, current and stale, `room`'s index holds (tests).
    func entriesHeld(in room: String) -> Int { byRoom[room]?.entries.count ?? 0 }

    mutating func insert(_ subscriber: any Subscriber, filter: RoomFilter) {
        let spot = subscriber.parkingSpot
        if spot.parked != nil { take(spot) }  // parked again, perhaps for other rooms
        spot.generation &+= 1
        spot.parked = subscriber
        spot.filter = filter
        count += 1
        let entry = RoomWaiters.Entry(spot: spot, generation: spot.generation)
        switch filter {
        case .all:
            anyRoom.append(entry)
        case .room(let room):
            if let kept = spot.keptWaiters(for: room) {
                kept.append(entry)  // as a rule: a stream parks again where it parked
            } else {
                let waiters = self.waiters(for: room)
                spot.keep(waiters, for: room)
                waiters.append(entry)
            }
        case .rooms(let rooms):
            for room in rooms { waiters(for: room).append(entry) }
        }
    }

    private mutating func waiters(for room: String) -> RoomWaiters {
        if let last = lastWaiters, last.attached, last.room == room { return last }
        let waiters: RoomWaiters
        if let found = byRoom[room] {
            waiters = found
        } else {
            waiters = RoomWaiters(room: room)
            byRoom[room] = waiters
        }
        lastWaiters = waiters
        return waiters
    }

    /// Removes and returns the subscriber if it is parked.
    mutating func remove(_ subscriber: any Subscriber) -> (any Subscriber)? {
        let spot = subscriber.parkingSpot
        guard spot.parked != nil else { return nil }
        return take(spot)
    }

    /// Removes every subscriber interested in `message` and appends it to `woken`.
    /// The room's entries are taken whole (a publish to a busy room wakes
    /// thousands: a generation check each); only a subscriber waiting for
    /// several rooms is looked up in its others. A conversation's message
    /// wakes only the every-room readers who may see it.
    mutating func removeAll(interestedIn message: EncodedMessage, into woken: inout [any Subscriber]) {
        let room = message.message.room
        if anyRoom.live > 0 {
            var staying: [RoomWaiters.Entry] = []
            for entry in anyRoom.entries where entry.spot.holds(entry) {
                let subscriber = entry.spot.parked!
                if !message.isPrivate || subscriber.access.sees(message) {
                    woken.append(leave(entry.spot, subscriber))
                } else {
                    staying.append(entry)
                }
            }
            anyRoom.entries.removeAll(keepingCapacity: true)
            anyRoom.entries.append(contentsOf: staying)
            anyRoom.live = staying.count
        }
        guard let waiters = byRoom[room], waiters.live > 0 else { return }
        // The room's entries out, the last publish's emptied array (its
        // capacity kept) in: each array held once, so neither is copied.
        var taken: [RoomWaiters.Entry] = []
        swap(&taken, &spare)
        swap(&taken, &waiters.entries)
        waiters.live = 0
        for entry in taken where entry.spot.holds(entry) {
            let spot = entry.spot
            if case .rooms(let rooms) = spot.filter, rooms.count > 1 {
                for other in rooms where other != room { leave(byRoom[other]) }
            }
            woken.append(leave(spot, spot.parked!))
        }
        taken.removeAll(keepingCapacity: true)
        spare = taken
    }

    /// Removes and returns every subscriber passing `predicate`.
    mutating func removeAll(where predicate: (any Subscriber) -> Bool) -> [any Subscriber] {
        var chosen: [ParkingSpot] = []
        for waiters in [anyRoom] + Array(byRoom.values) {
            for entry in waiters.entries where entry.spot.holds(entry) {
                if let subscriber = entry.spot.parked, predicate(subscriber) { chosen.append(entry.spot) }
            }
        }
        // A several-room subscriber is in several indexes: taken once.
        return chosen.compactMap { $0.parked == nil ? nil : take($0) }
    }

    /// Takes a parked spot out of every index it is in.
    @discardableResult
    private mutating func take(_ spot: ParkingSpot) -> any Subscriber {
        let subscriber = spot.parked!
        switch spot.filter {
        case .all:
            anyRoom.live -= 1
        case .room(let room):
            leave(spot.keptWaiters(for: room) ?? byRoom[room])
        case .rooms(let rooms):
            for room in rooms { leave(byRoom[room]) }
        }
        return leave(spot, subscriber)
    }

    /// The spot is parked no more (its entries are stale from now on).
    private mutating func leave(_ spot: ParkingSpot, _ subscriber: any Subscriber) -> any Subscriber {
        spot.parked = nil
        count -= 1
        return subscriber
    }

    /// One of a room's waiters left it some other way than by its publish.
    private mutating func leave(_ waiters: RoomWaiters?) {
        guard let waiters else { return }
        waiters.live -= 1
        if waiters.live == 0 { detach(waiters) }
    }

    /// Drops a room nobody waits for from the index, with its stale entries.
    private mutating func detach(_ waiters: RoomWaiters) {
        waiters.attached = false
        waiters.entries = []
        byRoom[waiters.room] = nil
    }
}
