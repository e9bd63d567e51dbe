import Foundation
import Logging
import Switchboard
import SwitchboardCore
import SwitchboardHTTP
import SwitchboardTCP
import SwitchboardAuth
import SwitchboardWebSocket

/// A real Switchboard server on a free loopback port with its own temporary
/// SQLite file, started the way `switchboard serve` starts it. The file it
/// made is removed when it goes (handed on by ``restarted()``); a file it was
/// given is its giver's.
public final class TestServer {
    public let server: ChatServer
    public let databasePath: String
    public let configuration: ChatServerConfiguration
    public var client: TestHTTPClient { TestHTTPClient(port: server.httpPort) }
    public var port: UInt16 { server.httpPort }
    public var tcpPort: Int { server.tcpPort ?? 0 }
    /// Whether this server made its database, and removes it when it goes:
    /// left, they were 8,000 files (2.2 GB) in /tmp/switchboard-tests after a few dozen runs.
    private var ownsDatabase: Bool

    public init(databasePath: String? = nil, keepaliveSeconds: Double = 15, idleTimeout: Int = 120,
         maxBodyBytes: Int = 64 * 1024, recentMessages: Int = 4096, maxTextBytes: Int = 4096,
         tcpFlushMilliseconds: Int = 50, tcpMaxQueuedBytes: Int = 256 * 1024,
                tcpKeepaliveSeconds: Int = 60, tcpIdleTimeoutSeconds: Int? = nil, tcpPort: Int = 0,
                maxWebSockets: Int = 10_000, store: (any MessageStore)? = nil,
                auth: AuthConfiguration = TestServer.auth(), allowedOrigins: [String] = [],
                maxConnections: Int = 10_000, publicFiles: StaticFiles? = nil, publicURL: String? = nil,
                storeTimeoutSeconds: Double = 5, editWindowSeconds: Int = 900, maxConnectionsPerAddress: Int? = nil,
                threads: Int = HTTPServerConfiguration.defaultThreads, logger: Logger? = nil) throws {
        Self.raiseOpenFileLimit()
        let path = databasePath ?? Self.temporaryDatabasePath()
        self.databasePath = path
        ownsDatabase = databasePath == nil
        let logger = logger ?? {
            var logger = Logger(label: "switchboard-test")
            logger.logLevel = ProcessInfo.processInfo.environment["SWITCHBOARD_TEST_LOG"].flatMap(Logger.Level.init(rawValue:)) ?? .error
            return logger
        }()
        var configuration = ChatServerConfiguration(
            databasePath: path,
            http: HTTPServerConfiguration(
                host: "127.0.0.1", port: 0, threads: threads, maxConnections: maxConnections, idleTimeoutSeconds: idleTimeout, maxBodyBytes: maxBodyBytes,
                keepaliveSeconds: keepaliveSeconds,
                publicFiles: publicFiles, adminToken: TestServer.adminToken, allowedOrigins: allowedOrigins),
            tcp: TCPServerConfiguration(host: "127.0.0.1", port: tcpPort, flushMilliseconds: tcpFlushMilliseconds,
                                        maxQueuedBytes: tcpMaxQueuedBytes, keepaliveIdleSeconds: tcpKeepaliveSeconds,
                                        idleTimeoutSeconds: tcpIdleTimeoutSeconds),
            webSocket: WebSocketConfiguration(keepaliveSeconds: keepaliveSeconds, maxConnections: maxWebSockets),
            recentMessages: recentMessages, auth: auth)
        configuration.limits = MessageLimits(maxTextBytes: maxTextBytes, editWindowSeconds: editWindowSeconds)
        configuration.http.publicURL = publicURL
        configuration.storeTimeoutSeconds = storeTimeoutSeconds
        if let maxConnectionsPerAddress {
            // Held on loopback too: a test's clients are on it.
            configuration.maxConnectionsPerAddress = maxConnectionsPerAddress
            configuration.limitsLoopbackConnections = true
        }
        self.configuration = configuration
        server = try ChatServer(configuration: configuration, store: store, logger: logger)
    }

    /// Stops this server and starts a new one on the same database.
    public func restarted() throws -> TestServer {
        server.shutdown()
        let next = try TestServer(databasePath: databasePath,
                                  keepaliveSeconds: configuration.http.keepaliveSeconds,
                                  recentMessages: configuration.recentMessages, auth: configuration.auth,
                                  allowedOrigins: configuration.http.allowedOrigins)
        (next.ownsDatabase, ownsDatabase) = (ownsDatabase, false)
        return next
    }

    public func stop() { server.shutdown() }

    deinit {
        server.shutdown()
        if ownsDatabase {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: databasePath + suffix) }
        }
    }

    /// Identity as configured for tests: bcrypt at its lowest cost (a
    /// registration takes a millisecond, not sixty), the rest as given.
    public static func auth(mode: AccessMode = .open, registration: RegistrationMode = .open, jwtSecret: String? = nil,
                            jwtPublicKeyPEM: String? = nil, publishRate: Double? = nil, publishBurst: Double? = nil,
                            signInsPerAccount: Double? = nil, signUpBurst: Double? = nil,
                            newRoomBurst: Double? = nil) -> AuthConfiguration {
        AuthConfiguration(mode: mode, registration: registration, jwtSecret: jwtSecret, jwtPublicKeyPEM: jwtPublicKeyPEM,
                          publishRate: publishRate, publishBurst: publishBurst, passwordCost: 4,
                          signInsPerAccount: signInsPerAccount, signUpBurst: signUpBurst, newRoomBurst: newRoomBurst)
    }

    /// The admin token every test server uses.
    public static let adminToken = "test-admin-token"

    public static func temporaryDatabasePath() -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-tests")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("\(UUID().uuidString).sqlite").path
    }

    private static func raiseOpenFileLimit() {
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
    }
}
