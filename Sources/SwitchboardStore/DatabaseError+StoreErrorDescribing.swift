import GRDB
import SwitchboardCore

/// SQLite's message and extended code, without the statement GRDB's
/// description names: `SQLite: database or disk is full (13)`.
extension DatabaseError: StoreErrorDescribing {
    public var summary: String {
        "SQLite: \(message ?? "error") (\(extendedResultCode.rawValue))"
    }
}
