import GRDB

extension DatabaseWriter {
    /// `write(_:)` for the paths a message takes (the group commit, the push
    /// queue): its `BEGIN IMMEDIATE` and `COMMIT` compiled once per
    /// connection rather than parsed at every transaction (GRDB's `write`
    /// prepares both each time: about 20,000 instructions a commit, a tenth
    /// of a lone publish). Rolled
    /// back when `body` throws or the commit fails; nothing of it is kept then.
    func writeInCompiledTransaction<Value>(_ body: (Database) throws -> Value) throws -> Value {
        try writeWithoutTransaction { db in
            try db.cachedStatement(sql: "BEGIN IMMEDIATE TRANSACTION").execute()
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
}
