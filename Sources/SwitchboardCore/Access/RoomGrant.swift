/// The rooms a token may read and write: its `rooms` claim. Each entry is a
/// room name or a prefix ending in `*` (`team-*`). A token without the claim
/// is not limited (``all``).
public struct RoomGrant: Sendable, Equatable {
    private let names: Set<String>
    private let prefixes: [String]
    /// Whether every room is allowed.
    public let isUnlimited: Bool

    /// Every room.
    public static let all = RoomGrant(names: [], prefixes: [], isUnlimited: true)

    private init(names: Set<String>, prefixes: [String], isUnlimited: Bool) {
        self.names = names
        self.prefixes = prefixes
        self.isUnlimited = isUnlimited
    }

    /// A grant from a `rooms` claim's entries; an empty list allows no room.
    public init(_ entries: [String]) {
        var names = Set<String>()
        var prefixes: [String] = []
        for entry in entries {
            if entry.hasSuffix("*") { prefixes.append(String(entry.dropLast())) } else { names.insert(entry) }
        }
        self.init(names: names, prefixes: prefixes, isUnlimited: false)
    }

    /// Whether `room` may be read and written.
    public func allows(_ room: String) -> Bool {
        isUnlimited || names.contains(room) || prefixes.contains { room.hasPrefix($0) }
    }
}
