import Foundation
import GRDB
import GRDBSQLite
import Testing
import SwitchboardCore
@testable import SwitchboardStore

/// The store's promise that an acknowledged message is on disk, checked on a
/// real SQLite file.
@Suite("Store durability")
struct StoreDurabilityTests {
    /// GRDB's pool turns WAL on after `prepareDatabase` and sets `synchronous =
    /// NORMAL` with it, which would leave commits unsynced: the writing
    /// connection must still say FULL (2) once the store is open, and again
    /// when it is opened a second time on the same file.
    @Test func everyCommitIsSyncedToDisk() throws {
        let path = try Self.temporaryPath("durability")
        defer { Self.remove(path) }
        do {
            let store = try SQLiteMessageStore(path: path)
            #expect(try store.synchronousSetting() == 2)
            _ = try store.append([MessageDraft(room: "lobby", user: "luke", text: "kept", kind: .message)], timestamp: 1)
        }
        let reopened = try SQLiteMessageStore(path: path)
        #expect(try reopened.synchronousSetting() == 2)
        #expect(try reopened.lastAssignedID() == 1)
    }

    /// SQLite counts no allocation (``SQLiteProcessSettings``): its memory
    /// statistics, a global mutex at every allocation, are off from before
    /// the process's first connection, which a store opened here or earlier
    /// is. With them on, a store that has written holds a few hundred KiB.
    @Test func sqliteCountsNoAllocations() throws {
        let path = try Self.temporaryPath("memory-statistics")
        defer { Self.remove(path) }
        let store = try SQLiteMessageStore(path: path)
        #expect(SQLiteProcessSettings.applied == SQLITE_OK)
        _ = try store.append([MessageDraft(room: "lobby", user: "luke", text: "uncounted", kind: .message)], timestamp: 1)
        var current: Int64 = -1, highest: Int64 = -1
        #expect(sqlite3_status64(SQLITE_STATUS_MEMORY_USED, &current, &highest, 0) == SQLITE_OK)
        #expect(current == 0)
    }

    /// Every text column is read back byte for byte, whether Swift kept the
    /// string inline (up to 15 bytes: a room, a name, a kind) or on the heap,
    /// with multi-byte characters, and an empty text stays text, not NULL
    /// (the insert binds each string's UTF-8 with its length: `MessageInsert`).
    @Test func textsAreStoredByteForByte() throws {
        let path = try Self.temporaryPath("texts")
        defer { Self.remove(path) }
        let store = try SQLiteMessageStore(path: path)
        let texts = ["", "a", "fifteen bytes!!", "sixteen bytes!!!", "héllo wörld 🎉", String(repeating: "a longer text ", count: 40)]
        let rooms = ["r", "é", "room-of-15bytes", "room-of-16-bytes", "lobby", "lobby"]
        let drafts = zip(rooms, texts).map { MessageDraft(room: $0, user: "ü", text: $1, kind: .message) }
        _ = try store.append(drafts, timestamp: 1)
        let read = try store.messages(after: 0, in: .all, limit: 10).messages
        #expect(read.map(\.text) == texts)
        #expect(read.map(\.room) == rooms)
        #expect(read.allSatisfy { $0.user == "ü" && $0.kind == .message })
    }

    /// The group commit's transaction (its BEGIN and COMMIT compiled once):
    /// a group that fails part-way keeps nothing of itself, not even the id
    /// it took, and leaves no transaction open for the next group.
    @Test func aGroupThatFailsKeepsNothing() throws {
        let path = try Self.temporaryPath("rollback")
        defer { Self.remove(path) }
        struct Refused: Error {}
        let store = try SQLiteMessageStore(path: path)
        _ = try store.append([MessageDraft(room: "lobby", user: "luke", text: "kept", kind: .message)], timestamp: 1)
        #expect(throws: Refused.self) {
            try store.writer.writeInCompiledTransaction { db in
                try db.execute(sql: "INSERT INTO message (room, user, text, kind, ts) VALUES ('lobby', 'luke', 'lost', 'message', 2)")
                throw Refused()
            }
        }
        #expect(try store.lastAssignedID() == 1)
        let next = try store.append([MessageDraft(room: "lobby", user: "luke", text: "after", kind: .message)], timestamp: 3)
        #expect(next.map(\.id) == [2])
        #expect(try store.writer.read { try String.fetchAll($0, sql: "SELECT text FROM message ORDER BY id") } == ["kept", "after"])
    }

    /// The message insert runs through SQLite's C API (`MessageInsert`): a
    /// step that fails throws SQLite's own message, the group keeps nothing
    /// of itself, and the compiled statement serves the next group with its
    /// own values (nothing left bound from the one that failed).
    @Test func anInsertThatFailsThrowsSQLitesErrorAndTheNextGroupIsStored() throws {
        let path = try Self.temporaryPath("insert-fails")
        defer { Self.remove(path) }
        let store = try SQLiteMessageStore(path: path)
        try store.writer.writeWithoutTransaction { db in
            try db.execute(sql: """
                CREATE TEMP TRIGGER refuse BEFORE INSERT ON message WHEN NEW.text = 'refused'
                BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
                """)
        }
        _ = try store.append([MessageDraft(room: "lobby", user: "luke", text: "kept", kind: .message)], timestamp: 1)
        do {
            _ = try store.append([MessageDraft(room: "lobby", user: "leia", text: "lost with its group", kind: .message),
                                  MessageDraft(room: "lobby", user: "luke", text: "refused", kind: .message)], timestamp: 2)
            Issue.record("the refused insert was stored")
        } catch let error as DatabaseError {
            #expect(error.message == "refused by the test")
            #expect(error.resultCode == .SQLITE_CONSTRAINT)
        }
        var reply = MessageDraft(room: "lobby", user: "han", text: "after", kind: .message)
        reply.clientID = "han-1"
        let next = try store.append([reply], timestamp: 3)
        #expect(next.map(\.id) == [2])
        let rows = try store.writer.read { try Row.fetchAll($0, sql: "SELECT user, text, ts, client_id FROM message ORDER BY id") }
        #expect(rows.map { [$0["user"], $0["text"]] as [String] } == [["luke", "kept"], ["han", "after"]])
        #expect(rows.map { $0["ts"] as Int64 } == [1, 3])
        #expect(rows.map { $0["client_id"] as String? } == [nil, "han-1"])
    }

    /// A fresh SQLite file's path in the tests' directory.
    private static func temporaryPath(_ name: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-tests")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("\(name)-\(UUID().uuidString).sqlite").path
    }

    /// Removes the file at `path` with its WAL and shared memory.
    private static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
