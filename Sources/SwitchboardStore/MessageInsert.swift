import GRDB
import GRDBSQLite
import SwitchboardCore

/// The group commit's `INSERT INTO message`, compiled once per connection
/// (GRDB's statement cache) and run through SQLite's C API: bind, step.
///
/// Compiled once, not per message: a profile of publishes on 64
/// connections had SQLite's parser at 5 %. Why not
/// `Statement.execute(arguments:)`: it makes each of the eleven values an
/// existential, validates their count and binds them through nested
/// closures, about 10,000 instructions a publish on the commit thread,
/// half of SQLite's own step (`Scripts/publish-instructions.sh`).
/// Everything else in the store goes through GRDB. Runs only inside the
/// commit's transaction, on the writer's connection.
struct MessageInsert {
    private let statement: Statement
    private let db: Database

    /// The compiled statement for `db` (prepared at the first commit of the connection).
    init(_ db: Database) throws {
        statement = try db.cachedStatement(sql: """
            INSERT INTO message (room, user, text, kind, ts, event, media, reply_to, target, detail, client_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (user, client_id) WHERE client_id IS NOT NULL DO NOTHING
            """)
        self.db = db
    }

    /// Inserts `draft` with these columns. Afterwards `db.lastInsertedRowID`
    /// is its id and `db.changesCount` is 0 when its client id was stored before.
    /// - Throws: `DatabaseError` with SQLite's code and message when the step fails.
    func run(_ draft: MessageDraft, timestamp: Int64, event: String?, media: String?, replyTo: Int64?, target: Int64?,
             detail: String?, clientID: String?) throws {
        let sqlite = statement.sqliteStatement
        // A failed step's code was reported by that step; reset only readies the statement again.
        _ = sqlite3_reset(sqlite)
        defer { sqlite3_clear_bindings(sqlite) }  // no message's text kept bound between commits
        bind(draft.room, 1)
        bind(draft.user, 2)
        bind(draft.text, 3)
        bind(draft.kind.rawValue, 4)
        bind(timestamp, 5)
        bind(event, 6)
        bind(media, 7)
        bind(replyTo, 8)
        bind(target, 9)
        bind(detail, 10)
        bind(clientID, 11)
        let code = sqlite3_step(sqlite)
        guard code == SQLITE_DONE else {
            _ = sqlite3_reset(sqlite)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
        }
    }

    private func bind(_ text: String?, _ index: Int32) {
        let code: Int32
        if var text {
            // The UTF-8 bytes in place, with their length: a String passed as a C string is
            // copied into a new array when it is stored inline (up to 15 bytes: most rooms,
            // names and kinds), four allocations a publish. SQLITE_TRANSIENT: SQLite copies
            // them (the buffer lives only for the call). An empty text is text, not NULL.
            code = text.withUTF8 { bytes in
                guard let start = bytes.baseAddress, !bytes.isEmpty else {
                    return sqlite3_bind_text(statement.sqliteStatement, index, "", 0, Self.transient)
                }
                return start.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_bind_text(statement.sqliteStatement, index, $0, Int32(bytes.count), Self.transient)
                }
            }
        } else {
            code = sqlite3_bind_null(statement.sqliteStatement, index)
        }
        precondition(code == SQLITE_OK, "binding a value to the message insert failed (\(code))")
    }

    private func bind(_ value: Int64?, _ index: Int32) {
        let code = value.map { sqlite3_bind_int64(statement.sqliteStatement, index, $0) }
            ?? sqlite3_bind_null(statement.sqliteStatement, index)
        precondition(code == SQLITE_OK, "binding a value to the message insert failed (\(code))")
    }

    /// SQLite's `SQLITE_TRANSIENT`, which Swift does not import (a cast of -1).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
