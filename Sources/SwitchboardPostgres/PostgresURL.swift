import Foundation
import PostgresNIO

/// Where a PostgreSQL database is: `postgres://USER[:PASSWORD]@HOST[:PORT]/DB`
/// (also `postgresql://`). TLS is not used: the nodes and the database are
/// expected on one private network.
public struct PostgresURL: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String

    /// Whether `text` names a PostgreSQL database rather than an SQLite file.
    public static func isPostgres(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Parses a URL; throws ``PostgresStoreError/badURL(_:)`` with what is wrong.
    public init(_ text: String) throws {
        guard Self.isPostgres(text), let components = URLComponents(string: text) else {
            throw PostgresStoreError.badURL("expected postgres://USER@HOST:PORT/DB, got \(text)")
        }
        guard let host = components.host, !host.isEmpty else { throw PostgresStoreError.badURL("no host in \(text)") }
        guard let user = components.user, !user.isEmpty else { throw PostgresStoreError.badURL("no user in \(text)") }
        let database = String(components.path.drop { $0 == "/" })
        self.host = host
        self.port = components.port ?? 5432
        self.user = user.removingPercentEncoding ?? user
        self.password = components.password.map { $0.removingPercentEncoding ?? $0 }
        self.database = database.isEmpty ? self.user : database
    }

    /// The URL without its password, for logs.
    public var redacted: String { "postgres://\(user)@\(host):\(port)/\(database)" }

    /// postgres-nio's configuration for it.
    func configuration(connectTimeoutSeconds: Int64) -> PostgresConnection.Configuration {
        var configuration = PostgresConnection.Configuration(host: host, port: port, username: user, password: password,
                                                             database: database, tls: .disable)
        configuration.options.connectTimeout = .seconds(connectTimeoutSeconds)
        return configuration
    }
}
