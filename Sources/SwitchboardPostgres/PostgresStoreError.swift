import PostgresNIO
import SwitchboardCore

/// What can go wrong between a node and its PostgreSQL database.
public enum PostgresStoreError: StoreErrorDescribing, CustomStringConvertible, CustomDebugStringConvertible, Sendable {
    /// The `--db` URL cannot be used.
    case badURL(String)
    /// The database did not answer in time; the connection was closed.
    case timedOut(seconds: Double)
    /// The database answered something this node cannot read.
    case unexpectedAnswer(String)
    /// The store was closed (the node is stopping): nothing more is asked.
    case closed
    /// What postgres-nio threw (``PostgresConnections`` wraps every
    /// `PSQLError`): its own description is one generic sentence for every
    /// error, so this one says what happened without the query or the
    /// server's detail (which may hold a row's values).
    case database(PSQLError)

    public var description: String {
        switch self {
        case .badURL(let detail): return "bad database URL: \(detail)"
        case .timedOut(let seconds): return "the database did not answer within \(seconds) s"
        case .unexpectedAnswer(let detail): return "unexpected answer from the database: \(detail)"
        case .closed: return "the store is closed"
        case .database(let error): return Self.summary(of: error)
        }
    }

    /// The description: it names no query and no row.
    public var summary: String { description }

    /// Everything postgres-nio knows (the query, the server's fields): for the operator's log.
    public var debugDescription: String {
        guard case .database(let error) = self else { return description }
        return String(reflecting: error)
    }

    /// The connection failed or ended: the database did not answer, it refused nothing.
    public var isUnanswered: Bool {
        guard case .database(let error) = self else {
            if case .timedOut = self { return true }
            return false
        }
        return [.connectionError, .serverClosedConnection, .uncleanShutdown, .clientClosedConnection].contains(error.code)
    }

    /// For the operator, at start: the description and, for a connection
    /// that could not be made, why (the address refused, a name not found).
    public var detailForOperator: String {
        guard case .database(let error) = self, error.code == .connectionError, let underlying = error.underlying else { return description }
        return "\(description): \(underlying)"
    }

    private static func summary(of error: PSQLError) -> String {
        switch error.code {
        case .server:
            let message = error.serverInfo?[.message] ?? "an error"
            return "PostgreSQL: \(message) (\(error.serverInfo?[.sqlState] ?? "no SQLSTATE"))"
        case .connectionError: return "PostgreSQL: the connection could not be made"
        case .serverClosedConnection: return "PostgreSQL: the server closed the connection"
        case .uncleanShutdown: return "PostgreSQL: the connection ended uncleanly"
        case .clientClosedConnection: return "PostgreSQL: the connection was closed"
        default: return "PostgreSQL: \(error.code)"
        }
    }
}
