import Foundation
import GRDB

/// What `/healthz` and the store gate ask of the database.
extension SQLiteMessageStore {
    /// `/healthz`'s probe: can the writer take its lock (`BEGIN IMMEDIATE`,
    /// the main database's too) and write? Its table is made at open. It is
    /// a temporary table, so a full disk passes: the last commit says more.
    public func checkWritable() throws {
        try writer.writeInCompiledTransaction { db in
            try db.cachedStatement(sql: "DELETE FROM health_probe").execute()
        }
    }

    /// A row of `health_write` written and committed, synced as a message's
    /// commit is: it fails on a full disk as a publish would, and succeeds
    /// once a publish would.
    public func checkDurableWrite() throws {
        try writer.writeInCompiledTransaction { db in
            try db.cachedStatement(sql: "INSERT INTO health_write (id, at) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET at = excluded.at")
                .execute(arguments: [Int64(Date().timeIntervalSince1970)])
        }
    }

    /// Another connection holding the database past the busy timeout (an
    /// operator's `sqlite3` in `BEGIN EXCLUSIVE`, a copy made by another
    /// tool): the database did not answer, it refused nothing. So a publish
    /// refused for it is a stall, which ends when the lock goes and the store
    /// answers (``StoreGate/isStalled(now:)``), not a refused write, after
    /// which `/healthz` would say 503 until someone published again.
    public func didNotAnswer(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
    }
}
