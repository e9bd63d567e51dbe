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
///
/// A run of plain messages in a group (no event, media, reply, act or
/// client id: what most publishes are) is inserted by one statement of
/// several rows (``run(plain:timestamp:)``): SQLite's cost of a statement
/// (its cursors on the table and each index, `AUTOINCREMENT`'s sequence
/// read and written) is about 12,000 instructions and a row's about 8,000,
/// so 13 rows, a group on 64 connections, cost 11,000 a row this way
/// against 22,000 a statement each (callgrind, a C program inserting the
/// same rows into the same schema).
struct MessageInsert {
    /// Most rows one statement inserts (11 values a row; a statement is
    /// compiled once per number of rows, and kept in GRDB's cache).
    static let mostRows = 32
    /// The statement's text for 1 ... ``mostRows`` rows, made once.
    private static let texts: [String] = (1...mostRows).map { rows in
        "INSERT INTO message (room, user, text, kind, ts, event, media, reply_to, target, detail, client_id) VALUES "
            + Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: rows).joined(separator: ", ")
            + " ON CONFLICT (user, client_id) WHERE client_id IS NOT NULL DO NOTHING"
    }
    /// The values a row binds.
    private static let columns: Int32 = 11

    private let statement: Statement
    private let db: Database
    /// The rows the statement inserts.
    let rows: Int

    /// The compiled statement of `rows` rows for `db` (from its cache:
    /// ``compileAll(in:)``).
    init(_ db: Database, rows: Int = 1) throws {
        precondition((1...Self.mostRows).contains(rows), "a message insert has 1 to \(Self.mostRows) rows")
        statement = try db.cachedStatement(sql: Self.texts[rows - 1])
        self.db = db
        self.rows = rows
    }

    /// Compiles the statements of every number of rows into `db`'s cache
    /// (the writer's, once it is open and its schema final).
    static func compileAll(in db: Database) throws {
        for rows in 1...mostRows { _ = try db.cachedStatement(sql: texts[rows - 1]) }
    }

    /// Whether `draft` is plain: a message that one row of a several-row
    /// statement stores with nothing else to look up or record (its id is
    /// its place in the statement: ``run(plain:timestamp:)``).
    static func isPlain(_ draft: UnsafePointer<MessageDraft>) -> Bool {
        // Matched, not compared with nil: `event == nil` copied the event through Optional's generic witness.
        guard case .none = draft.pointee.event, case .none = draft.pointee.clientID, case .none = draft.pointee.target,
              case .none = draft.pointee.replyTo, case .none = draft.pointee.media else { return false }
        return true
    }

    /// Inserts ``rows`` plain drafts (``isPlain(_:)``) with one step and
    /// returns the first one's id; the others have the ids after it, in
    /// order. A row is inserted with the next id (`AUTOINCREMENT`: after
    /// the highest ever given) in the order of the `VALUES`, none can
    /// conflict (no client id), and the connection's transaction has no
    /// other writer, so the ids are consecutive: checked by the count of
    /// rows stored and the last id.
    /// - Throws: `DatabaseError` with SQLite's code and message when the step fails.
    func run(plain drafts: UnsafeBufferPointer<MessageDraft>, timestamp: Int64) throws -> Int64 {
        precondition(drafts.count == rows, "\(drafts.count) drafts for a statement of \(rows) rows")
        let sqlite = statement.sqliteStatement
        _ = sqlite3_reset(sqlite)
        // Each draft's fields read through its address: `drafts[index]` as an
        // argument is a copy of the whole draft, a retain and a release of
        // each of its references (three a draft here, 1,200 instructions).
        let first = drafts.baseAddress!
        var capacity = 0
        for index in drafts.indices { capacity += Self.placedBytes(first + index) }
        try StatementTexts.with(capacity: capacity) { texts in
            defer { sqlite3_clear_bindings(sqlite) }  // before the texts go; no message's text kept bound between commits
            for index in drafts.indices {
                let draft = first + index
                bindRow(draft, at: Int32(index) * Self.columns, texts: &texts, timestamp: timestamp, event: nil, media: nil,
                        replyTo: nil, target: nil, detail: StoredActFields.detail(of: draft), clientID: nil)
            }
            try step()
        }
        let stored = db.changesCount, last = db.lastInsertedRowID
        guard stored == rows else {
            throw DatabaseError(message: "a statement of \(rows) messages stored \(stored)", sql: statement.sql)
        }
        return last - Int64(rows) + 1
    }

    /// Inserts `draft` with these columns (a statement of one row).
    /// Afterwards `db.lastInsertedRowID` is its id and `db.changesCount`
    /// is 0 when its client id was stored before.
    /// - Throws: `DatabaseError` with SQLite's code and message when the step fails.
    func run(_ draft: MessageDraft, timestamp: Int64, event: String?, media: String?, replyTo: Int64?, target: Int64?,
             detail: String?, clientID: String?) throws {
        precondition(rows == 1, "one draft for a statement of \(rows) rows")
        let sqlite = statement.sqliteStatement
        // A failed step's code was reported by that step; reset only readies the statement again.
        _ = sqlite3_reset(sqlite)
        try withUnsafePointer(to: draft) { draft in
            try StatementTexts.with(capacity: Self.placedBytes(draft)) { texts in
                defer { sqlite3_clear_bindings(sqlite) }  // before the texts go; no message's text kept bound between commits
                bindRow(draft, at: 0, texts: &texts, timestamp: timestamp, event: event, media: media, replyTo: replyTo,
                        target: target, detail: detail, clientID: clientID)
                try step()
            }
        }
    }

    /// The bytes of a row's texts that every message has (``StatementTexts``).
    private static func placedBytes(_ draft: UnsafePointer<MessageDraft>) -> Int {
        StatementTexts.bytes(draft.pointee.room) + StatementTexts.bytes(draft.pointee.user) + StatementTexts.bytes(draft.pointee.text)
            + StatementTexts.bytes(draft.pointee.kind.rawValue)
    }

    /// Binds one row's eleven values, after the `base` values of the rows
    /// before it: the texts every message has from `texts`, the others
    /// (rare, and often NULL) copied by SQLite.
    private func bindRow(_ draft: UnsafePointer<MessageDraft>, at base: Int32, texts: inout StatementTexts, timestamp: Int64,
                         event: String?, media: String?, replyTo: Int64?, target: Int64?, detail: String?, clientID: String?) {
        bind(texts.place(draft.pointee.room), base + 1)
        bind(texts.place(draft.pointee.user), base + 2)
        bind(texts.place(draft.pointee.text), base + 3)
        bind(texts.place(draft.pointee.kind.rawValue), base + 4)
        bind(timestamp, base + 5)
        bind(event, base + 6)
        bind(media, base + 7)
        bind(replyTo, base + 8)
        bind(target, base + 9)
        bind(detail, base + 10)
        bind(clientID, base + 11)
    }

    /// Steps the bound statement once, to its end.
    private func step() throws {
        let sqlite = statement.sqliteStatement
        let code = sqlite3_step(sqlite)
        guard code == SQLITE_DONE else {
            _ = sqlite3_reset(sqlite)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
        }
    }

    /// Binds text placed in the step's ``StatementTexts``, read in place.
    private func bind(_ placed: (start: UnsafePointer<CChar>, count: Int32), _ index: Int32) {
        let code = sqlite3_bind_text(statement.sqliteStatement, index, placed.start, placed.count, nil)  // nil: SQLITE_STATIC
        precondition(code == SQLITE_OK, "binding a value to the message insert failed (\(code))")
    }

    private func bind(_ text: String?, _ index: Int32) {
        let code: Int32
        if var text {
            // The rare texts (an event, media, detail, client id). The UTF-8 bytes in place,
            // with their length: a String passed as a C string is copied into a new array
            // when it is stored inline (up to 15 bytes). SQLITE_TRANSIENT: SQLite copies
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
