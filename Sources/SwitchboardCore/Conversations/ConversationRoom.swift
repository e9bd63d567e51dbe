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

    /// Whether `room` is in the conversations' name space (members only):
    /// `c.` or `C.` and anything after it. Only the store names a
    /// conversation (`c.17`), so `C.17` or `c.` is one nobody is a member
    /// of, and never a public room beside it.
    /// (Read as bytes in place: through the `UTF8View`'s iterator this was
    /// 96 instructions a call, twice a poll, callgrind.)
    @inlinable
    public static func isConversation(_ room: String) -> Bool {
        room.withUTF8Bytes { bytes in
            bytes.count >= 2 && bytes[0] | 0x20 == UInt8(ascii: "c") && bytes[1] == UInt8(ascii: ".")
        }
    }

    /// The room of the conversation created by message `id`.
    public static func name(createdBy id: Int64) -> String { prefix + String(id) }

    /// The key that makes a direct conversation one per pair: both names,
    /// lower-cased and sorted (names contain no newline).
    public static func directKey(_ first: String, _ second: String) -> String {
        [first.lowercased(), second.lowercased()].sorted().joined(separator: "\n")
    }
}
