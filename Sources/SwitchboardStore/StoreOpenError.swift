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

/// A database a newer Switchboard has brought up to date: it holds changes
/// of its schema this one does not know, and what this one would write
/// there could break what the newer one expects when it runs again.
public struct NewerDatabase: Error, CustomStringConvertible {
    /// The migrations the database has had that this version does not know.
    public var unknownMigrations: [String]

    public var description: String {
        let names = unknownMigrations.map { "'\($0)'" }.joined(separator: ", ")
        return "a newer Switchboard has used it (its schema has \(names), which this version does not know). "
            + "Run that version again, or this one on a backup made before the upgrade"
    }
}
