import GRDB

/// A backup's copy is marked, and the first server started on it moves its
/// ids on.
///
/// A backup is one moment; the server it was taken from went on handing out
/// ids after it (messages, webhook events, push jobs). A server started on
/// the copy would hand those ids out again, to other messages, and whoever
/// holds one from before takes the new message for one it has: a client's
/// cursor (`since`, `Last-Event-ID`, `since:`) skips it, a webhook receiver
/// that drops a repeated event id (as BACKEND.md asks) drops it. So
/// `switchboard backup` leaves a mark in its copy, and a server that opens a
/// marked database moves every id sequence ``backupIDGap`` on, in the
/// transaction that removes the mark: past any id the original can have
/// handed out since (60,000 a second for 200 days), and within JavaScript's
/// exact integers (2^53) for 8,000 restores. A copy put back again is marked
/// again, and moves on again.
extension SQLiteMessageStore {
    /// How far the ids move on at a backup's first start: 2^40.
    public static let backupIDGap: Int64 = 1 << 40

    /// The tables whose ids come from `AUTOINCREMENT`'s sequence.
    private static let sequencedTables = ["message", "webhook_event", "push_job"]

    /// Marks `db`, a backup's copy being made (written before it is checked
    /// and kept), with when it was taken (ms since the epoch). A copy of a
    /// copy never started on holds one mark, the newest.
    static func markAsBackup(_ db: Database, takenAt: Int64) throws {
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS backup_mark (taken INTEGER NOT NULL); DELETE FROM backup_mark")
        try db.execute(sql: "INSERT INTO backup_mark (taken) VALUES (?)", arguments: [takenAt])
    }

    /// At open: when `db` is a backup's copy not started on yet, moves its
    /// ids on and removes the mark, in one transaction. The last message id
    /// before the move, or nil when `db` was no backup's copy.
    static func moveIDsOnIfBackup(_ db: Database) throws -> Int64? {
        guard try db.tableExists("backup_mark") else { return nil }
        let last = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'message'") ?? 0
        for table in sequencedTables {
            // A table never inserted in has no row yet: it would start again at 1.
            try db.execute(sql: "INSERT INTO sqlite_sequence (name, seq) SELECT ?, 0 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ?)",
                           arguments: [table, table])
            try db.execute(sql: "UPDATE sqlite_sequence SET seq = seq + ? WHERE name = ?", arguments: [backupIDGap, table])
        }
        try db.execute(sql: "DROP TABLE backup_mark")
        return last
    }
}
