/// Where the next page of a member's conversation list starts: after the
/// conversation `room`, whose last message is `last` (0: none). The list
/// runs by last message, newest first, then by room, so every
/// conversation has one place in it whatever is published between pages.
/// As text (`before=`, `prev`): `LAST:ROOM`.
public struct ConversationCursor: Sendable, Equatable {
    /// The last message's id of the conversation the page ended with (0: none).
    public let last: Int64
    /// That conversation's room.
    public let room: String

    public init(last: Int64, room: String) {
        self.last = last
        self.room = room
    }

    /// Reads `LAST:ROOM`; nil when it is not that (a room that is not a conversation's too).
    public init?(text: String) {
        guard let colon = text.firstIndex(of: ":"), let last = Int64(text[..<colon]), last >= 0 else { return nil }
        let room = String(text[text.index(after: colon)...])
        guard ConversationRoom.isConversation(room) else { return nil }
        self.init(last: last, room: room)
    }

    /// `LAST:ROOM`, as ``init(text:)`` reads it.
    public var text: String { "\(last):\(room)" }
}
