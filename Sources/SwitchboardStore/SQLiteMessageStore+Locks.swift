import GRDB

extension SQLiteMessageStore {
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
