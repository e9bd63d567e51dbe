/// One line of a user's conversation list.
public struct ConversationSummary: Sendable, Equatable {
    /// The conversation itself.
    public var conversation: Conversation
    /// Whether the user muted it.
    public var muted: Bool
    /// The last message of any kind, if any.
    public var last: Message?
    /// Other people's messages (kind `message`) after the user's read marker.
    public var unread: Int
    /// The user's read marker.
    public var read: Int64

    public init(conversation: Conversation, muted: Bool, last: Message?, unread: Int, read: Int64) {
        self.conversation = conversation
        self.muted = muted
        self.last = last
        self.unread = unread
        self.read = read
    }
}
