import MicroHTTPD
import SwitchboardCore
import SwitchboardHTTP

/// Everything a ``ChatServer`` is started with.
public struct ChatServerConfiguration: Sendable {
    /// SQLite file, or `:memory:` for no persistence.
    public var databasePath: String
    /// The HTTP side.
    public var http: HTTPServerConfiguration
    /// Recent messages kept in memory for live delivery and short replays.
    public var recentMessages: Int

    public init(databasePath: String = "switchboard.sqlite",
                http: HTTPServerConfiguration = HTTPServerConfiguration(),
                recentMessages: Int = 4096) {
        self.databasePath = databasePath
        self.http = http
        self.recentMessages = recentMessages
    }
}
