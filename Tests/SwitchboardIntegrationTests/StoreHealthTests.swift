import Foundation
import GRDB
import Logging
import Testing
import SwitchboardCore
import SwitchboardPostgres
import SwitchboardTesting
@testable import SwitchboardStore

/// What `/healthz` and the store gate ask of the database, on real ones.
///
/// An SQLite file held by another process is a store that does not answer,
/// not one that refuses writes: a publish refused for it is a stall, over
/// when the lock goes. (As a refused write, `/healthz` said 503 until the
/// next successful publish, after the lock was long gone: on a quiet server,
/// or one its load balancer had taken out, for good.)
///
/// The durable write `/healthz` asks for while commits are refused: a real
/// row committed, again and again in one row, that fails where a commit would.
@Suite("Store health")
struct StoreHealthTests {
    @Test func aCommitThatOutwaitsAnotherConnectionsLockDidNotAnswer() throws {
        let path = try TestStore.temporaryPath("locked")
        defer { TestStore.remove(path) }
        let store = try SQLiteMessageStore(path: path)
        var holding = Configuration()
        holding.allowsUnsafeTransactions = true  // the lock outlives the access that takes it
        let other = try DatabaseQueue(path: path, configuration: holding)
        try other.writeWithoutTransaction { try $0.execute(sql: "BEGIN EXCLUSIVE") }
        let draft = MessageDraft(room: "lobby", user: "luke", text: "while locked", kind: .message)
        // SQLite's busy timeout (5 s) runs out: the commit throws.
        let error = #expect(throws: DatabaseError.self) { try store.commit([draft], timestamp: 1) }
        #expect(error?.resultCode == .SQLITE_BUSY)
        #expect(error.map { store.didNotAnswer($0) } == true)
        try other.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") }
        #expect(try store.commit([draft], timestamp: 2).count == 1)
        // A refusal is still a refusal.
        #expect(!store.didNotAnswer(DatabaseError(resultCode: .SQLITE_FULL)))
        #expect(!store.didNotAnswer(DatabaseError(resultCode: .SQLITE_READONLY)))
        #expect(!store.didNotAnswer(CocoaError(.fileWriteOutOfSpace)))
    }

    @Test func sqliteWritesItsOneRow() throws {
        let path = try TestStore.temporaryPath("durable-health")
        defer { TestStore.remove(path) }
        let store = try SQLiteMessageStore(path: path)
        for _ in 0..<3 { try store.checkDurableWrite() }
        let rows = try store.writer.read { try Row.fetchAll($0, sql: "SELECT id, at FROM health_write") }
        #expect(rows.count == 1)
        let at: Int64? = rows.first?["at"]
        #expect(at.map { abs($0 - Int64(Date().timeIntervalSince1970)) < 60 } == true, "\(rows)")
        // It refuses where a commit does: here, a database made read-only.
        try store.writer.writeWithoutTransaction { try $0.execute(sql: "PRAGMA query_only = ON") }
        #expect(throws: DatabaseError.self) { try store.checkDurableWrite() }
    }

    @Test(.enabled(if: TestPostgres.serverURL != nil, Comment(rawValue: TestPostgres.skipReason)))
    func postgresWritesItsOneRowAndFailsWhereACommitWould() throws {
        let url = try TestPostgres.freshDatabase()
        let store = try PostgresMessageStore(url: PostgresURL(url), nodeID: "a", logger: Logger(label: "test"))
        defer { try? store.close() }
        for _ in 0..<3 { try store.checkDurableWrite() }
        #expect(try TestPostgres.count(url, "SELECT count(*) FROM switchboard_health") == 1)
        // A database that refuses writes to the table (as a full or read-only one would every write).
        try TestPostgres.psql(url, """
            CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'could not extend file'; END $$;
            CREATE TRIGGER refuse BEFORE INSERT OR UPDATE ON switchboard_health FOR EACH ROW EXECUTE FUNCTION refuse()
            """)
        #expect(throws: (any Error).self) { try store.checkDurableWrite() }
        try TestPostgres.psql(url, "DROP TRIGGER refuse ON switchboard_health")
        try store.checkDurableWrite()
    }
}
