import GRDB
import GRDBSQLite
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

    /// Whether `user` sent `clientID` before: asked before a draft with a
    /// client id is inserted. Letting the unique index refuse the insert
    /// instead left a gap in the ids at every retry: `AUTOINCREMENT`
    /// allocates the rowid before the index is asked, and keeps it. One step
    /// of a statement compiled once, its texts bound in place through
    /// SQLite's C API (``sent(_:by:in:)`` through GRDB cost 14,000
    /// instructions a publish with a client id, callgrind).
    static func wasSent(_ clientID: String, by user: String, in db: Database) throws -> Bool {
        let statement = try db.cachedStatement(sql: "SELECT 1 FROM message WHERE user = ? AND client_id = ?")
        let sqlite = statement.sqliteStatement
        _ = sqlite3_reset(sqlite)
        defer {
            _ = sqlite3_reset(sqlite)
            sqlite3_clear_bindings(sqlite)  // before the texts go
        }
        var user = user, clientID = clientID
        let code = user.withUTF8 { user in
            clientID.withUTF8 { clientID in
                bind(user, 1, sqlite)
                bind(clientID, 2, sqlite)
                return sqlite3_step(sqlite)
            }
        }
        guard code == SQLITE_ROW || code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                                sql: statement.sql)
        }
        return code == SQLITE_ROW
    }

    /// Binds UTF-8 bytes in place (`SQLITE_STATIC`: valid until the bindings are cleared).
    private static func bind(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int32, _ sqlite: OpaquePointer?) {
        let code = bytes.withMemoryRebound(to: CChar.self) { text in
            guard let start = text.baseAddress else { return sqlite3_bind_text(sqlite, index, "", 0, nil) }
            return sqlite3_bind_text(sqlite, index, start, Int32(text.count), nil)
        }
        precondition(code == SQLITE_OK, "binding a value to the client id's lookup failed (\(code))")
    }
}
