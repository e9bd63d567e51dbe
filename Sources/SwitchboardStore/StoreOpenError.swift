/// The database could not be opened or brought up to date.
public struct StoreOpenError: Error, CustomStringConvertible {
    /// The database path that was asked for.
    public var path: String
    /// What SQLite (through GRDB) said.
    public var underlying: any Error

    public var description: String {
        "cannot open the database at \(path) (does its folder exist and is it writable?): \(underlying)"
    }
}
