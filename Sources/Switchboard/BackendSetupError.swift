/// Why webhooks or a publish hook cannot start.
public enum BackendSetupError: Error, CustomStringConvertible {
    /// `--webhook` or `--publish-hook` without `--webhook-secret`.
    case noSecret
    /// Webhooks on a store that keeps no queue for them.
    case noQueue

    public var description: String {
        switch self {
        case .noSecret: return "--webhook and --publish-hook need --webhook-secret: every request to the backend is signed with it"
        case .noQueue: return "webhooks need a database that keeps their queue (SQLite or PostgreSQL)"
        }
    }
}
