/// Where conversations, their members, read markers and mutes are kept:
/// the same database as the messages. Membership itself is written by
/// ``MessageStore/commit(_:timestamp:)`` with the event that changes it;
/// this reads it, and keeps what each member alone changes (read marker,
/// mute). Called off the commit thread, never per delivered message.
public protocol ConversationStore: Sendable {
    /// Every conversation with its members (at start).
    func conversations() throws -> [Conversation]
    /// `user`'s conversations with their last message and unread count,
    /// most recent activity first.
    func summaries(for user: String) throws -> [ConversationSummary]
    /// Other people's unread messages over `user`'s conversations not
    /// muted (what ``summaries(for:)`` would add up, in one query).
    func unread(for user: String) throws -> Int
    /// Each member's read marker in `room`: member → the last id they read.
    func readMarkers(in room: String) throws -> [String: Int64]
    /// Moves `user`'s read marker in `room` forward to `id` (a lower id is
    /// ignored); returns the marker now. Nil: `user` is not a member.
    func markRead(room: String, user: String, id: Int64) throws -> Int64?
    /// Mutes or unmutes `room` for `user`; false: not a member.
    func setMuted(room: String, user: String, muted: Bool) throws -> Bool
}
