/// Which rooms a reader wants: one, several, or all.
public enum RoomFilter: Sendable, Equatable {
    /// Every room.
    case all
    /// Only these rooms (never empty).
    case rooms(Set<String>)

    /// A filter for a single room.
    public static func room(_ name: String) -> RoomFilter { .rooms([name]) }

    /// The one room it passes, when it passes exactly one.
    public var soleRoom: String? {
        if case .rooms(let rooms) = self, rooms.count == 1 { return rooms.first }
        return nil
    }

    /// Whether a message of `room` passes.
    public func contains(_ room: String) -> Bool {
        switch self {
        case .all: return true
        case .rooms(let rooms):
            // Most readers follow one room: compare, rather than hash per message.
            if let only = soleRoom { return only == room }
            return rooms.contains(room)
        }
    }
}
