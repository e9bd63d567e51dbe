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
        try OptionRange.check("--max-text-bytes", maxTextBytes, 1...(1 << 20))
        try OptionRange.check("--edit-window", editWindow, 0...OptionRange.tenYears, " seconds")
        try OptionRange.check("--max-group-members", maxGroupMembers, 2...100_000)
    }

    /// The limits as Core applies them.
    var limits: MessageLimits {
        MessageLimits(maxTextBytes: maxTextBytes, editWindowSeconds: editWindow, maxConversationMembers: maxGroupMembers)
    }
}
