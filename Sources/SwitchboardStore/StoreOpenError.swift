import GRDB

/// The database could not be opened or brought up to date.
public struct StoreOpenError: Error, CustomStringConvertible {
    /// The database path that was asked for.
    public var path: String
    /// What SQLite (through GRDB) said, or ``NewerDatabase``.
    public var underlying: any Error

    public var description: String { "cannot open the database at \(path): \(reason)" }

    /// What went wrong, and what to look at: the hint depends on what SQLite said
    /// (a hint about the folder read wrong beside a file that is no database).
    private var reason: String {
        guard let error = underlying as? DatabaseError else { return String(describing: underlying) }
        switch error.resultCode {
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_AUTH:
            return "\(error.summary); does its folder exist, is it a file, and may this user write to both?"
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return "\(error.summary); it is not an SQLite database, or it is damaged (restore a backup: `switchboard backup` in docs/OPERATIONS.md)"
        default:
            return error.summary
        }
    }
}
