import GRDB
import GRDBSQLite
import SwitchboardCore

/// A conversation's figures, kept by the commit that stores each message
/// (in its transaction, on the writer's connection) in each member's row:
/// the conversation's last message that is not an act (`last_id`: the
/// list's order and `last`), and the member's unread count (`unread`: other
/// people's `message`s after their read marker). The list and `/api/me`
/// then read one row per conversation whatever the history: counted at
/// every read, a million unread messages cost each of them 180 ms of a
/// reader, and eight callers at once held every other read back.
///
/// A message is a member's own (never unread for them) when it is spelled
/// as their name or lower-cases to their key: the rule every count of the
/// store uses (here: a message's count, its removal and a marker's move;
/// and in the migration that made the counts).
///
/// One statement a message, stepped through SQLite's C API as
/// ``MessageInsert`` is, in the members' rows only: through GRDB's
/// `execute(arguments:)`, and with `last_id` in the conversation's row (a
/// second statement, a second page written), a group's publish with its
/// delivery cost 49,800 instructions more; this way 22,000–26,000 (154,000–156,000
/// → 176,000–182,000, `BENCH_ARGS=--conversation CLIENTS=1 Scripts/instructions.sh`).
enum ConversationCounts {
    /// Whether message `?1` by `?3` (a `message` when `?4`) is unread for the member of the row.
    private static let unreadHere = "(?4 AND read_id < ?1 AND user <> ?3 AND user_key <> lower(?3))"
    private static let counted = "UPDATE conversation_member SET last_id = ?1, unread = unread + \(unreadHere) WHERE room = ?2"

    /// Counts `message`, just stored, in its conversation (nothing for a public room or an act).
    static func record(_ message: Message, in db: Database) throws {
        guard ConversationRoom.isConversation(message.room), !message.kind.isAct else { return }
        try step(db.cachedStatement(sql: counted), message, db)
    }

    /// Takes `message`, its row just deleted, out of its conversation's
    /// figures: only the rows it changes (those it was unread for, and the
    /// last message's, found again).
    static func forget(_ message: Message, in db: Database) throws {
        guard ConversationRoom.isConversation(message.room), !message.kind.isAct else { return }
        try db.execute(sql: """
            UPDATE conversation_member SET
                unread = max(0, unread - \(unreadHere)),
                last_id = CASE WHEN last_id = ?1 THEN (SELECT MAX(id) FROM message
                                                       WHERE room = ?2 AND kind NOT IN ('edit', 'reaction', 'delete'))
                               ELSE last_id END
            WHERE room = ?2 AND (\(unreadHere) OR last_id = ?1)
            """, arguments: [message.id, message.room, message.user, message.kind == .message])
    }

    /// Moves member `key`'s marker in `room` forward to `id` and takes the
    /// messages it passed out of their unread count: none left when it
    /// reaches the last one (reading to the end costs nothing), otherwise
    /// those passed counted, each message at most once per member however
    /// the marker moves. Returns the marker, or nil for no such member.
    static func markRead(room: String, key: String, id: Int64, in db: Database) throws -> Int64? {
        guard let member = try Row.fetchOne(db.cachedStatement(
            sql: "SELECT user, read_id, unread, last_id FROM conversation_member WHERE room = ? AND user_key = ?"),
            arguments: [room, key]) else { return nil }
        let read: Int64 = member["read_id"]
        guard id > read else { return read }
        var unread: Int64 = 0
        if let last: Int64 = member["last_id"], id < last {
            // The messages passed that were unread for the member: others' `message`s (the rule of `unreadHere`, from the member's side).
            let passed = try Int64.fetchOne(db.cachedStatement(sql: """
                SELECT COUNT(*) FROM message WHERE room = ?1 AND id > ?4 AND id <= ?5 AND kind = 'message'
                  AND user <> ?2 AND lower(user) <> ?3
                """), arguments: [room, member["user"] as String, key, read, id]) ?? 0
            let before: Int64 = member["unread"]
            unread = max(0, before - passed)
        }
        try db.cachedStatement(sql: "UPDATE conversation_member SET read_id = ?, unread = ? WHERE room = ? AND user_key = ?")
            .execute(arguments: [id, unread, room, key])
        return id
    }

    /// Binds the message's id (`?1`), room (`?2`), user (`?3`), read in
    /// place, and whether it is a `message` (`?4`), and steps once to the end.
    private static func step(_ statement: Statement, _ message: Message, _ db: Database) throws {
        let sqlite = statement.sqliteStatement
        _ = sqlite3_reset(sqlite)
        defer { sqlite3_clear_bindings(sqlite) }  // before the texts go
        var room = message.room, user = message.user
        let code = room.withUTF8 { room in
            user.withUTF8 { user in
                sqlite3_bind_int64(sqlite, 1, message.id)
                bind(room, 2, sqlite)
                bind(user, 3, sqlite)
                sqlite3_bind_int64(sqlite, 4, message.kind == .message ? 1 : 0)
                return sqlite3_step(sqlite)
            }
        }
        guard code == SQLITE_DONE else {
            _ = sqlite3_reset(sqlite)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                                sql: statement.sql)
        }
    }

    /// Binds UTF-8 bytes in place (`SQLITE_STATIC`: valid until the bindings are cleared).
    private static func bind(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int32, _ sqlite: OpaquePointer?) {
        let code = bytes.withMemoryRebound(to: CChar.self) { text in
            guard let start = text.baseAddress else { return sqlite3_bind_text(sqlite, index, "", 0, nil) }
            return sqlite3_bind_text(sqlite, index, start, Int32(text.count), nil)
        }
        precondition(code == SQLITE_OK, "binding a value to a conversation's count failed (\(code))")
    }
}
