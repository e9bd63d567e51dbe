/// Reads of the store on the caller's thread: run them on the gate
/// (``StoreGate/run(_:_:completion:)``), never on a thread that serves connections.
extension MessageBus {
    /// The latest `limit` messages of `room`, oldest first, as a delivery to
    /// `transport` (counted in the stats): a poll with no cursor.
    public func latest(in room: String, limit: Int, for transport: Transport) throws -> [EncodedMessage] {
        let latest = try store.latest(in: room, limit: limit).map(EncodedMessage.init)
        stats.delivered(latest, transport: transport)
        return latest
    }

    /// The latest `limit` messages of `room` with id < `id`, oldest first: a
    /// page back through the history.
    public func messages(in room: String, before id: Int64, limit: Int) throws -> [EncodedMessage] {
        try store.messages(in: room, before: id, limit: limit).map(EncodedMessage.init)
    }

    /// The message `id` of `room`, if it is stored.
    public func message(id: Int64, in room: String) throws -> EncodedMessage? {
        guard id > 0, let found = try store.messages(after: id - 1, in: .room(room), limit: 1).messages.first,
              found.id == id
        else { return nil }
        return EncodedMessage(found)
    }

    /// The replies to message `id` of `room` after `cursor`, oldest first.
    public func replies(to id: Int64, in room: String, after cursor: Int64, limit: Int) throws -> [EncodedMessage] {
        try store.replies(to: id, in: room, after: cursor, limit: limit).map(EncodedMessage.init)
    }

    /// Up to `limit` stored rooms named after `after` ("" for the first) that
    /// `visible` lets through, by name, with their message count and last id,
    /// looking at no more than `budget` rooms: `scannedThrough` is the last
    /// name looked at when the look stopped short of the end (the next page
    /// starts after it), nil at the end. Kept in memory as messages are
    /// stored (read from the store once, at start), in name order: a page
    /// costs what it returns, neither a scan of the log (`GROUP BY room`
    /// over a million messages took 160 ms) nor a copy and sort of every room.
    /// `visible` is asked outside the bus's lock, a page's worth of rooms at a time.
    public func roomPage(after: String, limit: Int, budget: Int, visible: (String) -> Bool)
        -> (rooms: [RoomSummary], scannedThrough: String?)
    {
        var rooms: [RoomSummary] = []
        var from = after, looked = 0
        while true {
            let chunk = state.withLock { $0.rooms.page(after: from, limit: min(limit - rooms.count, budget - looked)) }
            for summary in chunk.rooms where visible(summary.name) { rooms.append(summary) }
            looked += chunk.rooms.count
            guard chunk.more, let last = chunk.rooms.last else { return (rooms, nil) }
            from = last.name
            if rooms.count >= limit || looked >= budget { return (rooms, from) }
        }
    }

    /// The `limit` rooms with the newest messages, newest first, and how
    /// many rooms there are (the admin's figures, once a second).
    public func recentRooms(limit: Int) -> (rooms: [RoomSummary], count: Int) {
        state.withLock { ($0.rooms.mostRecent(limit: limit), $0.rooms.count) }
    }

    /// Throws unless the store can take writes.
    public func checkWritable() throws {
        try store.checkWritable()
    }
}
