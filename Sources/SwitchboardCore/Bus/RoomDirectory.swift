/// Every room with a stored message, with its figures, by name and in name
/// order: the bus keeps it as messages enter the ring. A page of rooms and
/// the most recent rooms cost in proportion to what they return, not to
/// the rooms that exist (anyone may make rooms, a hundred at once and then
/// one a second: a day of that is 86,400 rooms).
struct RoomDirectory {
    private var byName: [String: RoomSummary] = [:]
    /// Every name of `byName`, sorted (`String`'s `<`).
    private var names: [String] = []

    init(_ rooms: [RoomSummary] = []) {
        byName = Dictionary(rooms.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        names = byName.keys.sorted()
    }

    var count: Int { byName.count }

    subscript(name: String) -> RoomSummary? { byName[name] }

    /// Records message `id` in `room`: `counted` more messages (0 for
    /// a deletion's tombstone) and its id as the last, when above the last
    /// counted. False when the room is new (made with this message).
    mutating func record(_ counted: Int, id: Int64, in room: String) -> Bool {
        if let index = byName.index(forKey: room) {
            // Above the last id counted: one read at start and the first ingest may both hold it.
            if id > byName.values[index].lastID {
                byName.values[index].messageCount += counted
                byName.values[index].lastID = id
            }
            return true
        }
        byName[room] = RoomSummary(name: room, messageCount: counted, lastID: id)
        names.insert(room, at: Self.firstIndex(in: names, after: room, orEqual: true))
        return false
    }

    /// Forgets `room` (its only message was taken back).
    mutating func remove(_ room: String) {
        guard byName.removeValue(forKey: room) != nil else { return }
        let index = Self.firstIndex(in: names, after: room, orEqual: true)
        if index < names.count, names[index] == room { names.remove(at: index) }
    }

    /// Up to `limit` rooms named after `after` (from the first for ""), in
    /// name order, and whether any room comes after them.
    func page(after: String, limit: Int) -> (rooms: [RoomSummary], more: Bool) {
        let start = after.isEmpty ? 0 : Self.firstIndex(in: names, after: after, orEqual: false)
        let end = min(names.count, start + max(0, limit))
        return (names[start..<end].compactMap { byName[$0] }, end < names.count)
    }

    /// The `limit` rooms with the newest messages, newest first: one pass
    /// over the rooms, keeping the best `limit` sorted.
    func mostRecent(limit: Int) -> [RoomSummary] {
        guard limit > 0 else { return [] }
        var best: [RoomSummary] = []
        best.reserveCapacity(limit + 1)
        for summary in byName.values {
            if best.count == limit, let last = best.last, summary.lastID <= last.lastID { continue }
            var low = 0, high = best.count
            while low < high {
                let middle = (low + high) / 2
                if best[middle].lastID > summary.lastID { low = middle + 1 } else { high = middle }
            }
            best.insert(summary, at: low)
            if best.count > limit { best.removeLast() }
        }
        return best
    }

    /// The first index of sorted `names` whose name comes after `name` (or is it, with `orEqual`).
    private static func firstIndex(in names: [String], after name: String, orEqual: Bool) -> Int {
        var low = 0, high = names.count
        while low < high {
            let middle = (low + high) / 2
            if names[middle] < name || (!orEqual && names[middle] == name) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
