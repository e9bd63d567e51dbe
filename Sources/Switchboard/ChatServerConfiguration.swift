import SwitchboardCore
import SwitchboardHTTP
import SwitchboardTCP

/// Everything a ``ChatServer`` is started with.
public struct ChatServerConfiguration: Sendable {
    /// SQLite file, or `:memory:` for no persistence.
    public var databasePath: String
    /// The HTTP side.
    public var http: HTTPServerConfiguration
    /// The raw TCP side; nil to leave it off.
    public var tcp: TCPServerConfiguration?
    /// Event-loop threads for the TCP side.
    public var tcpThreads: Int
    /// Recent messages kept in memory for live delivery and short replays.
    public var recentMessages: Int

    public init(databasePath: String = "switchboard.sqlite",
                http: HTTPServerConfiguration = HTTPServerConfiguration(),
                tcp: TCPServerConfiguration? = TCPServerConfiguration(),
                tcpThreads: Int = HTTPServerConfiguration.coreCount,
                recentMessages: Int = 4096) {
        self.databasePath = databasePath
        self.http = http
        self.tcp = tcp
        self.tcpThreads = tcpThreads
        self.recentMessages = recentMessages
    }
}
