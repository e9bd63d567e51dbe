/// How conversation rooms are named: `c.` and the id of the message that
/// created the conversation (`c.17`), chosen by the store in the transaction
/// that creates it, so names are unique across nodes. Public rooms may not
/// use the prefix: a name starting `c.` is always a conversation, readable
/// by its members only (no such conversation reads as "not a member").
public enum ConversationRoom {
    /// The prefix of every conversation's room name.
    public static let prefix = "c."

    /// The room a `created` draft is stored in before the store names it.
    public static let unnamed = "c.new"

    /// Whether `room` is a conversation's (members only).
    @inline(__always)
    public static func isConversation(_ room: String) -> Bool {
        room.utf8.count > 2 && room.utf8.starts(with: prefix.utf8)
    }

    /// The room of the conversation created by message `id`.
    public static func name(createdBy id: Int64) -> String { prefix + String(id) }

    /// The key that makes a direct conversation one per pair: both names,
    /// lower-cased and sorted (names contain no newline).
    public static func directKey(_ first: String, _ second: String) -> String {
        [first.lowercased(), second.lowercased()].sorted().joined(separator: "\n")
    }
}
