/// Which rooms a reader wants: one, several, or all.
public enum RoomFilter: Sendable, Equatable {
    /// Every room.
    case all
    /// One room: what most readers follow, with no set to build or hash
    /// (a long poll makes one a request).
    case room(String)
    /// Several rooms (never empty); ``named(_:)`` gives ``room(_:)`` for one.
    case rooms(Set<String>)

    /// The filter for `names`: every room when there are none.
    public static func named(_ names: Set<String>) -> RoomFilter {
        switch names.count {
        case 0: return .all
        case 1: return .room(names.first!)
        default: return .rooms(names)
        }
    }

    /// The one room it passes, when it passes exactly one.
    public var soleRoom: String? {
        switch self {
        case .all: return nil
        case .room(let room): return room
        case .rooms(let rooms): return rooms.count == 1 ? rooms.first : nil
        }
    }

    /// The rooms it names, sorted; none for ``all``.
    public var names: [String] {
        switch self {
        case .all: return []
        case .room(let room): return [room]
        case .rooms(let rooms): return rooms.sorted()
        }
    }

    /// Whether a message of `room` passes.
    public func contains(_ room: String) -> Bool {
        switch self {
        case .all: return true
        case .room(let only): return only == room
        case .rooms(let rooms): return rooms.contains(room)
        }
    }
}
