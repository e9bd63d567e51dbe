import ArgumentParser
import SwitchboardCore

/// `switchboard serve`'s limits on messages and conversations.
struct MessageOptions: ParsableArguments {
    @Option(name: .customLong("max-text-bytes"), help: "Most bytes of text in one message.")
    var maxTextBytes: Int = 4096

    @Option(name: .customLong("edit-window"), help: "Seconds after sending in which its author may edit or unsend a message (0: never).")
    var editWindow: Int = 900

    @Option(name: .customLong("max-group-members"), help: "Most members of one conversation, its creator among them (at least 2).")
    var maxGroupMembers: Int = 1_000

    func validate() throws {
        guard maxTextBytes > 0, editWindow >= 0 else { throw ValidationError("--max-text-bytes is positive, --edit-window 0 or more.") }
        guard maxGroupMembers >= 2 else { throw ValidationError("--max-group-members is at least 2.") }
    }

    /// The limits as Core applies them.
    var limits: MessageLimits {
        MessageLimits(maxTextBytes: maxTextBytes, editWindowSeconds: editWindow, maxConversationMembers: maxGroupMembers)
    }
}
