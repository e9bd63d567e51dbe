/// Who is notified of a message (SPEC "Reaching people who are away"):
/// for a `message` in a conversation, every member but its sender who has
/// no connection open on any node. Mutes are the store's to apply (they
/// live beside the subscriptions). Pure: presence is passed in.
public enum PushRecipients {
    /// The members of `conversation` to notify of `message`, given who is online anywhere (lowercased names).
    public static func of(_ message: Message, in conversation: Conversation?, online: Set<String>) -> [String] {
        guard message.kind == .message, !message.replayed, let conversation else { return [] }
        let sender = message.user.lowercased()
        return conversation.members.filter { member in
            let key = member.lowercased()
            return key != sender && !online.contains(key)
        }
    }
}
