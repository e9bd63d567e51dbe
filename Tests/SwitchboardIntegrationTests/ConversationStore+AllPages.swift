import SwitchboardCore

extension ConversationStore {
    /// Every one of `user`'s conversations, page after page (a request asks
    /// for one page; the store tests read the whole list).
    func summaries(for user: String) throws -> [ConversationSummary] {
        var all: [ConversationSummary] = []
        var cursor: ConversationCursor?
        repeat {
            let page = try summaries(for: user, after: cursor, limit: ConversationPage.mostConversations)
            all += page.summaries
            cursor = page.next
        } while cursor != nil
        return all
    }
}
