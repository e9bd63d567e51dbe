import Foundation
import GRDB
import GRDBSQLite
import SwitchboardCore

/// Messages read from a compiled `SELECT` of ``SQLiteMessageStore/columns``
/// (in that order), column by column through SQLite's C API: the reading
/// half of ``MessageInsert``.
///
/// Why not GRDB's `Row`: `Row.fetchAll` copies every column of every row
/// into `DatabaseValue`s with the column names, and reading each back as a
/// Swift value looked up generic metadata (`Optional<String>`, ...) at
/// every read: about 17,500 instructions a message, 350,000 of the 795,000
/// a page of 20 older messages cost (callgrind). Runs on the connection
/// that compiled the statement, inside its access.
enum MessageRows {
    /// Every message `statement` returns with `arguments`, in its order.
    /// - Throws: GRDB's error for arguments that do not fit the statement;
    ///   `DatabaseError` with SQLite's code and message when a step fails.
    static func fetchAll(_ statement: Statement, arguments: StatementArguments) throws -> [Message] {
        var messages: [Message] = []
        try each(statement, arguments: arguments) { message in
            messages.append(message)
            return true
        }
        return messages
    }

    /// The first message `statement` returns with `arguments`, if any.
    static func fetchOne(_ statement: Statement, arguments: StatementArguments) throws -> Message? {
        var first: Message?
        try each(statement, arguments: arguments) { message in
            first = message
            return false
        }
        return first
    }

    /// Steps `statement` with `arguments`, each row to `body` while it answers true.
    private static func each(_ statement: Statement, arguments: StatementArguments, _ body: (Message) -> Bool) throws {
        try statement.setArguments(arguments)  // resets and binds
        let sqlite = statement.sqliteStatement
        defer { _ = sqlite3_reset(sqlite) }  // ends the read whatever happened
        while true {
            let code = sqlite3_step(sqlite)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                let message = String(cString: sqlite3_errmsg(sqlite3_db_handle(sqlite)))
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
            }
            guard body(message(sqlite)) else { return }
        }
    }

    /// The row `sqlite` is on as a message.
    private static func message(_ sqlite: OpaquePointer) -> Message {
        let event = text(sqlite, 6), media = text(sqlite, 7)
        var message = Message(id: sqlite3_column_int64(sqlite, 0), room: text(sqlite, 1) ?? "", user: text(sqlite, 2) ?? "",
                              text: text(sqlite, 3) ?? "", kind: MessageKind(rawValue: text(sqlite, 4) ?? "") ?? .message,
                              ts: sqlite3_column_int64(sqlite, 5),
                              event: event.flatMap { try? JSONDecoder().decode(ConversationEvent.self, from: Data($0.utf8)) },
                              media: media.flatMap { try? JSONDecoder().decode([MediaAttachment].self, from: Data($0.utf8)) })
        let (replyTo, target) = (integer(sqlite, 8), integer(sqlite, 9))
        let (detail, standing) = (text(sqlite, 10), text(sqlite, 11))
        message.clientID = text(sqlite, 12)
        if replyTo != nil || target != nil || detail != nil || standing != nil {
            StoredActFields.restore(&message, replyTo: replyTo, target: target, detail: detail, standing: standing)
        }
        return message
    }

    /// Column `index` as text; nil when it is NULL.
    private static func text(_ sqlite: OpaquePointer, _ index: Int32) -> String? {
        guard sqlite3_column_type(sqlite, index) != SQLITE_NULL, let bytes = sqlite3_column_text(sqlite, index) else { return nil }
        // The length after the text (SQLite's order: the text may be converted first).
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(sqlite, index))), as: UTF8.self)
    }

    /// Column `index` as an integer; nil when it is NULL.
    private static func integer(_ sqlite: OpaquePointer, _ index: Int32) -> Int64? {
        sqlite3_column_type(sqlite, index) == SQLITE_NULL ? nil : sqlite3_column_int64(sqlite, index)
    }
}
