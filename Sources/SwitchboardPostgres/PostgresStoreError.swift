/// What can go wrong between a node and its PostgreSQL database.
public enum PostgresStoreError: Error, CustomStringConvertible, Sendable {
    /// The `--db` URL cannot be used.
    case badURL(String)
    /// The database did not answer in time; the connection was closed.
    case timedOut(seconds: Double)
    /// The database answered something this node cannot read.
    case unexpectedAnswer(String)
    /// The store was closed (the node is stopping): nothing more is asked.
    case closed

    public var description: String {
        switch self {
        case .badURL(let detail): return "bad database URL: \(detail)"
        case .timedOut(let seconds): return "the database did not answer within \(seconds) s"
        case .unexpectedAnswer(let detail): return "unexpected answer from the database: \(detail)"
        case .closed: return "the store is closed"
        }
    }
}
