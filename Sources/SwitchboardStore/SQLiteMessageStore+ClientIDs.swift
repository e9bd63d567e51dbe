import GRDB
import SwitchboardCore

/// Sending exactly once: a user's client id names one message, looked up
/// in the commit's transaction (so two publishes of it in one group, or one
/// after a restart, store one message), with a unique index behind it.
extension SQLiteMessageStore {
    /// The message `user` sent with `clientID`, if any, marked `replayed`.
    static func sent(_ clientID: String, by user: String, in db: Database) throws -> Message? {
        let select = try db.cachedStatement(sql: "SELECT \(columns) FROM message WHERE user = ? AND client_id = ?")
        guard var earlier = try MessageRows.fetchOne(select, arguments: [user, clientID]) else { return nil }
        earlier.replayed = true
        return earlier
    }

    /// After an insert the unique index refused (a client id sent before),
    /// the id it took is given back. AUTOINCREMENT allocates the rowid, one
    /// more than the sequence, before the index is asked, and keeps it at
    /// the statement's end: every retry left a gap (PostgreSQL's function
    /// looks the client id up first). Looking it up first here too cost
    /// 14,000 instructions a publish with a client id (+18 % on the commit
    /// thread, callgrind); this costs nothing until a retry. Safe however
    /// SQLite allocates: the newest message is never deleted (the admin's
    /// delete appends its tombstone, which cannot be deleted), so the next
    /// id, one more than the largest of the sequence and the table, is new.
    static func giveBackRefusedID(in db: Database) throws {
        try db.cachedStatement(sql: "UPDATE sqlite_sequence SET seq = seq - 1 WHERE name = 'message'").execute()
    }
}
