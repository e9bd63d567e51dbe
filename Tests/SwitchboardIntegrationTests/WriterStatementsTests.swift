import GRDB
import GRDBSQLite
import Testing
import SwitchboardCore
import SwitchboardTesting
@testable import SwitchboardStore

/// The writer's compiled statements (the message inserts, `BEGIN` and
/// `COMMIT`) survive the store's reads. GRDB's `read` on a database queue
/// (`--db :memory:`, one connection for reads and writes) turns `PRAGMA
/// query_only` on and off, and SQLite expires every compiled statement of
/// the connection at a flag pragma: the next commit compiled its insert
/// again in `sqlite3_step`, up to 400,000 instructions on the commit thread,
/// after every sign-in, and after the media count read at every start.
@Suite struct WriterStatementsTests {
    /// How many times SQLite compiled the writer's statements again, all of them.
    private static func recompilations(_ store: SQLiteMessageStore) throws -> Int32 {
        store.writer.writeWithoutTransaction { db in
            var count: Int32 = 0, statement = sqlite3_next_stmt(db.sqliteConnection, nil)
            while let current = statement {
                count += sqlite3_stmt_status(current, SQLITE_STMTSTATUS_REPREPARE, 0)
                statement = sqlite3_next_stmt(db.sqliteConnection, current)
            }
            return count
        }
    }

    /// Every read the store makes outside a message's way, then a group of
    /// each size a commit uses most: none compiled again, on either kind of
    /// database.
    @Test(arguments: [true, false]) func theStoresReadsLeaveTheWritersStatementsCompiled(inMemory: Bool) throws {
        let path = inMemory ? ":memory:" : try TestStore.temporaryPath("writer-statements")
        defer { if !inMemory { TestStore.remove(path) } }
        let store = try SQLiteMessageStore(path: path)
        func commit(_ rows: Int) throws {
            let group = (1...rows).map { MessageDraft(room: "lobby", user: "luke", text: "message \($0)", kind: .message) }
            #expect(try store.append(group, timestamp: 1).count == rows)
        }
        try commit(1)
        try commit(13)
        #expect(try store.createAccount("luke", passwordHash: "x", created: 1))
        let before = try Self.recompilations(store)
        _ = try store.passwordHash(of: "luke")
        _ = try store.accounts()
        _ = try store.bans()
        _ = try store.conversations()
        _ = try store.recentMedia(limit: 10)
        _ = try store.mediaUsage()
        _ = try store.sweepableMedia(uploadedBefore: 0)
        try commit(1)
        try commit(13)
        #expect(try Self.recompilations(store) == before)
    }
}
