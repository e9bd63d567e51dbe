/// Which rooms a reader wants: one, several, or all.
public enum RoomFilter: Sendable, Equatable {
    /// Every room.
    case all
    /// Only these rooms (never empty).
    case rooms(Set<String>)

    /// A filter for a single room.
    public static func room(_ name: String) -> RoomFilter { .rooms([name]) }

    /// Whether a message of `room` passes.
    public func contains(_ room: String) -> Bool {
        switch self {
        case .all: return true
        case .rooms(let rooms):
            // Most readers follow one room: compare, rather than hash per message.
            if rooms.count == 1, let only = rooms.first { return only == room }
            return rooms.contains(room)
        }
    }
}
