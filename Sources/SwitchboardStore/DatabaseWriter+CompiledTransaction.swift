import GRDB

extension DatabaseWriter {
    /// `write(_:)` for the paths a message takes (the group commit, the push
    /// and webhook queues): its `BEGIN IMMEDIATE` and `COMMIT` compiled once
    /// per connection rather than parsed at every transaction (GRDB's
    /// `write` prepares both each time: about 20,000 instructions a commit,
    /// a tenth of a lone publish). Rolled back when `body` throws or the
    /// commit fails; nothing of it is kept then.
    func writeInCompiledTransaction<Value>(_ body: (Database) throws -> Value) throws -> Value {
        try writeWithoutTransaction { db in try Self.inCompiledTransaction("BEGIN IMMEDIATE TRANSACTION", db, body) }
    }

    /// `read(_:)` for every read of the store: one snapshot in a transaction
    /// compiled once per reader, where GRDB's `read` spent about 33,000
    /// instructions a read beginning and ending its own. And on a database
    /// queue (`:memory:`, whose one connection also writes) GRDB's `read`
    /// sets `PRAGMA query_only` and clears it: a flag pragma, at which SQLite
    /// expires every compiled statement of the connection, so the commit
    /// after any read compiled its message insert again (up to 400,000
    /// instructions). What guards against a write here is the code's own
    /// review: every body is a `SELECT`.
    func readInCompiledTransaction<Value>(_ body: (Database) throws -> Value) throws -> Value {
        try unsafeRead { db in try Self.inCompiledTransaction("BEGIN DEFERRED TRANSACTION", db, body) }
    }

    private static func inCompiledTransaction<Value>(_ begin: String, _ db: Database,
                                                     _ body: (Database) throws -> Value) throws -> Value {
        try db.cachedStatement(sql: begin).execute()
        do {
            let value = try body(db)
            try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
            return value
        } catch {
            if db.isInsideTransaction { try? db.rollback() }
            throw error
        }
    }
}
