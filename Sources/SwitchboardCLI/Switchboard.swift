import ArgumentParser

/// The `switchboard` command.
@main
struct SwitchboardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switchboard",
        abstract: "One chat server, one message bus, many ways in.",
        subcommands: [ServeCommand.self, BackupCommand.self, CompareCommand.self, BenchCommand.self],
        defaultSubcommand: ServeCommand.self
    )
}
