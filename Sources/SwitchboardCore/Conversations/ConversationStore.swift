/// Where conversations, their members, read markers and mutes are kept:
/// the same database as the messages. Membership itself is written by
/// ``MessageStore/commit(_:timestamp:)`` with the event that changes it;
/// this reads it, and keeps what each member alone changes (read marker,
/// mute). Called off the commit thread, never per delivered message.
public protocol ConversationStore: Sendable {
    /// Every conversation with its members (at start).
    func conversations() throws -> [Conversation]
    /// A page of `user`'s conversations with their last message and unread
    /// count, most recent activity first (by last message, then room,
    /// both descending: ``ConversationCursor``): at most `limit` after
    /// `cursor` (nil: from the first). Costs what the page holds, not what
    /// the member is in.
    func summaries(for user: String, after cursor: ConversationCursor?, limit: Int) throws -> ConversationPage
    /// One of `user`'s conversations as the list has it; nil when `user` is not a member.
    func summary(for user: String, in room: String) throws -> ConversationSummary?
    /// Other people's unread messages over `user`'s conversations not
    /// muted (what every page's summaries would add up, in one query).
    func unread(for user: String) throws -> Int
    /// Each member's read marker in `room`: member → the last id they read.
    func readMarkers(in room: String) throws -> [String: Int64]
    /// Moves `user`'s read marker in `room` forward to `id` (a lower id is
    /// ignored); returns the marker now. Nil: `user` is not a member.
    func markRead(room: String, user: String, id: Int64) throws -> Int64?
    /// Mutes or unmutes `room` for `user`; false: not a member.
    func setMuted(room: String, user: String, muted: Bool) throws -> Bool
}
