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
