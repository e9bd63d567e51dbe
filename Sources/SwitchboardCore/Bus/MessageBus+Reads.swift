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

    /// Every stored room with its message count and last id, by name:
    /// kept in memory as messages are stored (read from the store once, at
    /// start), so listing rooms costs no scan of the log: `GROUP BY room`
    /// over a million messages took 160 ms, on every `GET /api/rooms`.
    public func rooms() -> [RoomSummary] {
        state.withLock { Array($0.rooms.values) }.sorted { $0.name < $1.name }
    }

    /// Throws unless the store can take writes.
    public func checkWritable() throws {
        try store.checkWritable()
    }
}
