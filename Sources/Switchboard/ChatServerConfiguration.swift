import SwitchboardCore
import SwitchboardHooks
import SwitchboardHTTP
import SwitchboardTCP
import SwitchboardWebSocket
import Foundation
import SwitchboardPostgres
import SwitchboardWebPush

/// Everything a ``ChatServer`` is started with.
public struct ChatServerConfiguration: Sendable {
    /// SQLite file, `:memory:` for no persistence, or `postgres://USER@HOST:PORT/DB`
    /// for a store shared by several nodes.
    public var databasePath: String
    /// This node's name on a shared store: unique per process start.
    public var nodeID: String
    /// The HTTP side.
    public var http: HTTPServerConfiguration
    /// The raw TCP side; nil to leave it off.
    public var tcp: TCPServerConfiguration?
    /// WebSocket connections (on the HTTP port).
    public var webSocket: WebSocketConfiguration
    /// wss on a port of its own (`--wss`): where, and its TLS context; nil: none.
    public var webSocketTLS: WebSocketTLSAddress?
    /// Event-loop threads for the TCP side.
    public var tcpThreads: Int
    /// Recent messages kept in memory for live delivery and short replays.
    public var recentMessages: Int
    /// Accounts, tokens, bans, the publish rate.
    public var auth: AuthConfiguration
    /// What a message may be (text size, names), the same on every way in:
    /// setting it sets each transport's.
    public var limits: MessageLimits {
        get { http.limits }
        set {
            http.limits = newValue
            tcp?.limits = newValue
            webSocket.limits = newValue
        }
    }
    /// `--max-connections-per-address`: most connections one client address
    /// (an IPv6 address's /64) holds at once, on every port together; nil: no limit.
    public var maxConnectionsPerAddress: Int? = 1_000
    /// Whether loopback is held to ``maxConnectionsPerAddress`` too (tests);
    /// by default it is not: a reverse proxy on the machine brings everyone from it.
    public var limitsLoopbackConnections = false
    /// `--store-timeout`: how long a request waits for the store before 503.
    public var storeTimeoutSeconds: Double = 5
    /// `--media-dir`: where uploads' files go; nil: `media/` beside the
    /// SQLite file (for `:memory:`, a new folder under the system's temporary one).
    public var mediaDirectory: String?
    /// `--max-upload-mib`, `--upload-quota-mib` and the rest of what uploads are held to.
    public var media = MediaLimits()
    /// Web Push: the VAPID key, subject and hosts admitted.
    public var webPush = WebPushConfiguration()
    /// Webhooks and the publish hook (`--webhook`, `--publish-hook`, …).
    public var hooks = HookConfiguration()

    public init(databasePath: String = "switchboard.sqlite",
                http: HTTPServerConfiguration = HTTPServerConfiguration(),
                tcp: TCPServerConfiguration? = TCPServerConfiguration(),
                webSocket: WebSocketConfiguration = WebSocketConfiguration(),
                tcpThreads: Int = HTTPServerConfiguration.coreCount,
                recentMessages: Int = 4096,
                auth: AuthConfiguration = AuthConfiguration(),
                nodeID: String = ChatServerConfiguration.freshNodeID()) {
        self.databasePath = databasePath
        self.nodeID = nodeID
        self.http = http
        self.tcp = tcp
        self.webSocket = webSocket
        self.tcpThreads = tcpThreads
        self.recentMessages = recentMessages
        self.auth = auth
    }
}

extension ChatServerConfiguration {
    /// `HOST-PID-RANDOM`: tells nodes apart in logs and on the admin page,
    /// and never repeats across restarts (a restarted node is a new node).
    /// The database, fit for a log: a PostgreSQL URL without its password.
    public var databaseForLogs: String {
        guard PostgresURL.isPostgres(databasePath) else { return databasePath }
        return (try? PostgresURL(databasePath).redacted) ?? "postgres://…"
    }

    /// Whether the media folder is the server's own throwaway one (no
    /// `--media-dir` with `:memory:`, or PostgreSQL's cache): removed when it stops.
    public var mediaDirectoryIsThrowaway: Bool {
        mediaDirectory == nil && (databasePath == ":memory:" || PostgresURL.isPostgres(databasePath))
    }

    /// The folder uploads' files go in (see ``mediaDirectory``).
    public var resolvedMediaDirectory: String {
        if let mediaDirectory { return mediaDirectory }
        if mediaDirectoryIsThrowaway { return ThrowawayMediaFolders.newPath() }
        let folder = (databasePath as NSString).deletingLastPathComponent
        return (folder.isEmpty ? "." : folder) + "/media"
    }

    public static func freshNodeID() -> String {
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "node"
        return "\(host)-\(ProcessInfo.processInfo.processIdentifier)-\(String(UInt32.random(in: 0...UInt32.max), radix: 36))"
    }
}
