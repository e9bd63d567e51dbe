import Foundation
import GRDB
import Testing
import SwitchboardCore
import SwitchboardTesting
@testable import SwitchboardStore

/// An SQLite file held by another process is a store that does not answer,
/// not one that refuses writes: a publish refused for it is a stall, over
/// when the lock goes. (As a refused write, `/healthz` said 503 until the
/// next successful publish, after the lock was long gone: on a quiet server,
/// or one its load balancer had taken out, for good.)
@Suite("A locked SQLite file")
struct StoreLockTests {
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
}
