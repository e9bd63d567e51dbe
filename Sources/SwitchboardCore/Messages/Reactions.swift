/// Who reacted to a message with what (`"reactions":{"👍":["leia","luke"]}`):
/// emoji in code-point order (so every reader, and a decoded copy, has the
/// same order), each with its users in the order they reacted.
public struct Reactions: Sendable, Equatable, Codable {
    /// Each emoji with its users; none is empty.
    public private(set) var entries: [Entry]

    /// One emoji and who reacted with it.
    public struct Entry: Sendable, Equatable, Codable {
        public var emoji: String
        public var users: [String]
    }

    public init(_ entries: [Entry] = []) {
        self.entries = entries.filter { !$0.users.isEmpty }.sorted { Self.precedes($0.emoji, $1.emoji) }
    }

    /// From a message's JSON form (`{"👍":["leia"]}`).
    public init(byEmoji: [String: [String]]) {
        self.init(byEmoji.map { Entry(emoji: $0.key, users: $0.value) })
    }

    /// The JSON form's dictionary.
    public var byEmoji: [String: [String]] {
        Dictionary(uniqueKeysWithValues: entries.map { ($0.emoji, $0.users) })
    }

    private static func precedes(_ a: String, _ b: String) -> Bool {
        a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars)
    }

    public var isEmpty: Bool { entries.isEmpty }

    /// The most reactions one user may have on one message: twenty, as
    /// chat apps allow (Discord: twenty kinds a message). Unbounded, one
    /// account made a message as long as it liked (300 reactions, a 16 kB
    /// message in every read of it), through the edit window and any text limit.
    public static let mostByOneUser = 20

    /// How many of the reactions are `user`'s.
    public func count(by user: String) -> Int {
        entries.reduce(0) { $0 + ($1.users.contains(user) ? 1 : 0) }
    }

    /// Whether `user` may turn `emoji` on: theirs already, or fewer than ``mostByOneUser`` theirs.
    public func admits(_ emoji: String, by user: String) -> Bool {
        entries.contains { $0.emoji == emoji && $0.users.contains(user) } || count(by: user) < Self.mostByOneUser
    }

    /// `user`'s reaction with `emoji` turned on or off; false when it
    /// already was so, or when it would be more than ``mostByOneUser`` of theirs.
    public mutating func set(_ emoji: String, by user: String, on: Bool) -> Bool {
        let index = entries.firstIndex { $0.emoji == emoji }
        let has = index.map { entries[$0].users.contains(user) } ?? false
        guard has != on, !on || count(by: user) < Self.mostByOneUser else { return false }
        if on {
            if let index {
                entries[index].users.append(user)
            } else {
                let at = entries.firstIndex { Self.precedes(emoji, $0.emoji) } ?? entries.count
                entries.insert(Entry(emoji: emoji, users: [user]), at: at)
            }
        } else if let index {
            entries[index].users.removeAll { $0 == user }
            if entries[index].users.isEmpty { entries.remove(at: index) }
        }
        return true
    }

    /// As a message carries them: one JSON object, keys in ``entries``' order.
    public var json: [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "{")]
        for (index, entry) in entries.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            MessageJSON.appendString(entry.emoji, to: &out)
            out.append(contentsOf: ":[".utf8)
            for (position, user) in entry.users.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                MessageJSON.appendString(user, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "}"))
        return out
    }
}
