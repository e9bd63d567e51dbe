/// A page of a member's conversation list, most recent activity first,
/// and where the next one starts (nil: this was the last).
public struct ConversationPage: Sendable, Equatable {
    /// The conversations on this page, in the list's order.
    public var summaries: [ConversationSummary]
    /// The `before` of the next page; nil when no conversation is left.
    public var next: ConversationCursor?

    public init(summaries: [ConversationSummary], next: ConversationCursor?) {
        self.summaries = summaries
        self.next = next
    }

    /// The most conversations one page may hold (`limit`).
    public static let mostConversations = 500
    /// How many a page holds when the client does not say.
    public static let defaultConversations = 100
}
