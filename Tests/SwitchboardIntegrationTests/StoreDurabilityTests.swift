import Foundation
import GRDB
import GRDBSQLite
import Testing
import SwitchboardCore
import SwitchboardTesting
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
        let path = try TestStore.temporaryPath("durability")
        defer { TestStore.remove(path) }
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
        let path = try TestStore.temporaryPath("memory-statistics")
        defer { TestStore.remove(path) }
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
        let path = try TestStore.temporaryPath("texts")
        defer { TestStore.remove(path) }
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
        let path = try TestStore.temporaryPath("rollback")
        defer { TestStore.remove(path) }
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

    /// The message inserts of 1 to 32 rows are compiled when the store opens
    /// (`MessageInsert.compileAll`), not in the commit of the first group of
    /// each size, a publish's wait; and a group's commit compiles nothing more.
    @Test func theMessageInsertsAreCompiledWhenTheStoreOpens() throws {
        let path = try TestStore.temporaryPath("compiled")
        defer { TestStore.remove(path) }
        let store = try SQLiteMessageStore(path: path)
        func inserts() throws -> Set<String> {
            store.writer.writeWithoutTransaction { db in
                var texts = Set<String>(), statement = sqlite3_next_stmt(db.sqliteConnection, nil)
                while let current = statement {
                    if let sql = sqlite3_sql(current).map(String.init(cString:)), sql.hasPrefix("INSERT INTO message (") { texts.insert(sql) }
                    statement = sqlite3_next_stmt(db.sqliteConnection, current)
                }
                return texts
            }
        }
        let compiled = try inserts()
        #expect(compiled.count == MessageInsert.mostRows)
        let group = (1...20).map { MessageDraft(room: "lobby", user: "luke", text: "message \($0)", kind: .message) }
        #expect(try store.append(group, timestamp: 1).map(\.id) == Array(1...20))
        #expect(try inserts() == compiled)
    }

    /// The message insert runs through SQLite's C API (`MessageInsert`): a
    /// step that fails throws SQLite's own message, the group keeps nothing
    /// of itself, and the compiled statement serves the next group with its
    /// own values (nothing left bound from the one that failed).
    @Test func anInsertThatFailsThrowsSQLitesErrorAndTheNextGroupIsStored() throws {
        let path = try TestStore.temporaryPath("insert-fails")
        defer { TestStore.remove(path) }
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

    /// A group's plain messages are inserted several rows a statement
    /// (`MessageInsert.run(plain:timestamp:)`), their ids worked out from
    /// the statement's last: each returned message must be the row stored
    /// under its id, in the group's order, across runs broken by a message
    /// with a client id, longer than one statement holds (32), with a
    /// location's detail, and after the newest message was deleted (an id
    /// is never given twice).
    @Test func plainMessagesStoredSeveralToAStatementAreTheRowsUnderTheirIds() throws {
        let path = try TestStore.temporaryPath("several-rows")
        defer { TestStore.remove(path) }
        let store = try SQLiteMessageStore(path: path)
        _ = try store.append([MessageDraft(room: "lobby", user: "luke", text: "first", kind: .message),
                              MessageDraft(room: "lobby", user: "luke", text: "deleted", kind: .message)], timestamp: 1)
        #expect(try store.delete(id: 2)?.text == "deleted")
        var drafts = (0..<40).map { MessageDraft(room: $0.isMultiple(of: 3) ? "lobby" : "r\($0)", user: "u\($0)", text: "plain \($0)", kind: .message) }
        var once = MessageDraft(room: "lobby", user: "han", text: "with a client id", kind: .message)
        once.clientID = "han-1"
        drafts.insert(once, at: 5)
        drafts[7].location = Location(lat: 51.5, lon: -0.125, accuracy: 20)
        let returned = try store.append(drafts, timestamp: 2)
        #expect(returned.map(\.text) == drafts.map(\.text))
        #expect(returned.map(\.id) == Array(3...43))
        let read = try store.messages(after: 0, in: .all, limit: 100).messages
        #expect(read.map(\.id) == [1] + Array(3...43))
        for message in returned {
            let row = read.first { $0.id == message.id }
            #expect(row?.text == message.text && row?.room == message.room && row?.user == message.user, "id \(message.id)")
            #expect(row?.location == message.location && row?.clientID == message.clientID, "id \(message.id)")
        }
        #expect(read.first { $0.id == 10 }?.location == Location(lat: 51.5, lon: -0.125, accuracy: 20))
        // A second group with the same client id: answered with the first's message, and the plain ones around it stored.
        let again = try store.append([MessageDraft(room: "lobby", user: "leia", text: "before", kind: .message),
                                      MessageDraft(room: "lobby", user: "leia", text: "before 2", kind: .message),
                                      once,
                                      MessageDraft(room: "lobby", user: "leia", text: "after", kind: .message),
                                      MessageDraft(room: "lobby", user: "leia", text: "after 2", kind: .message)], timestamp: 3)
        #expect(again.map(\.text) == ["before", "before 2", "with a client id", "after", "after 2"])
        #expect(again[2].id == 8 && again[2].replayed)
        let stored = try store.messages(after: 43, in: .all, limit: 10).messages
        #expect(stored.map(\.text) == ["before", "before 2", "after", "after 2"])
        #expect(stored.map(\.id) == [again[0].id, again[1].id, again[3].id, again[4].id])
        #expect(try store.lastAssignedID() == again[4].id)
    }

    /// The insert binds a statement's texts from one buffer that SQLite reads
    /// in place (StatementTexts): every row keeps its own bytes, whatever
    /// their length (inline strings up to 15 bytes, native ones, a group too
    /// large for the stack) and script, an empty text stays text, and the
    /// one-row insert (a client id) reads its texts the same way.
    @Test func textsReadInPlaceAreStoredWholeRowByRow() throws {
        let path = try TestStore.temporaryPath("texts-in-place")
        defer { TestStore.remove(path) }
        let store = try SQLiteMessageStore(path: path)
        let long = String(repeating: "é🐶x", count: 560)  // 4,480 bytes: 32 rows take 143 KB
        var drafts = (0..<32).map { row in
            MessageDraft(room: row.isMultiple(of: 2) ? "room-of-16-bytes" : "r\(row)", user: "user\(row)-ünïcödé",
                         text: row == 3 ? "" : "\(row) " + (row.isMultiple(of: 3) ? long : "short \(row)"), kind: .message)
        }
        var once = MessageDraft(room: "lobby", user: "han", text: "with a client id " + long, kind: .message)
        once.clientID = "han-texts"
        drafts.append(once)
        let returned = try store.append(drafts, timestamp: 5)
        let read = try store.messages(after: 0, in: .all, limit: 100).messages
        #expect(read.count == drafts.count)
        for (draft, row) in zip(drafts, read) {
            #expect(row.text == draft.text && row.room == draft.room && row.user == draft.user, "id \(row.id)")
        }
        #expect(read.map(\.id) == returned.map(\.id))
        #expect(read[3].text == "" && read.last?.clientID == "han-texts")
    }

    /// `/healthz`'s probe leaves the writer's compiled statements alone: a
    /// probe that made its table each time had GRDB empty the statement cache
    /// (it does after every `CREATE`), and the next commit compile them all.
    @Test func theHealthProbeKeepsTheWritersCompiledStatements() throws {
        let path = try TestStore.temporaryPath("probe")
        defer { TestStore.remove(path) }
        let store = try SQLiteMessageStore(path: path)
        let compiled = { try store.writer.writeWithoutTransaction { try $0.cachedStatement(sql: "SELECT count(*) FROM message") } }
        let before = try compiled()
        for _ in 0..<3 { try store.checkWritable() }
        #expect(try compiled() === before)
    }

    /// The log is read back by every filter, each read's statement compiled
    /// once per connection and run again with other arguments (a filter's
    /// rooms as one JSON argument), each in a snapshot that it ends.
    @Test func everyFilterReadsItsRoomsInOrderAgainAndAgain() throws {
        let path = try TestStore.temporaryPath("reads")
        defer { TestStore.remove(path) }
        let store = try SQLiteMessageStore(path: path)
        let rooms = ["a", "b", "c"]
        _ = try store.append((0..<9).map { MessageDraft(room: rooms[$0 % 3], user: "luke", text: "m\($0 + 1)", kind: .message) },
                             timestamp: 1)
        func ids(after cursor: Int64 = 0, _ filter: RoomFilter, limit: Int = 100) throws -> ([Int64], Int64) {
            let batch = try store.messages(after: cursor, in: filter, limit: limit)
            return (batch.messages.map(\.id), batch.scannedThrough)
        }
        for _ in 0..<3 {
            #expect(try ids(.all) == (Array(1...9), 9))
            #expect(try ids(.room("b")) == ([2, 5, 8], 9))
            #expect(try ids(.room("c")) == ([3, 6, 9], 9))
            #expect(try ids(.rooms(["a", "c"])) == ([1, 3, 4, 6, 7, 9], 9))
            #expect(try ids(.rooms(["b", "c"])) == ([2, 3, 5, 6, 8, 9], 9))
            #expect(try ids(.rooms(["a", "b", "c", "d"])) == (Array(1...9), 9))
            // A page ends at its last message; past the newest, at the newest id.
            #expect(try ids(after: 4, .rooms(["a", "c"]), limit: 2) == ([6, 7], 7))
            #expect(try ids(after: 8, .room("b")) == ([], 9))
            #expect(try ids(.rooms(["x", "y"])) == ([], 9))
            // A room name is data, never SQL.
            #expect(try ids(.rooms(["a\") OR 1=1 --", "b"])) == ([2, 5, 8], 9))
            #expect(try store.latest(in: "a", limit: 2).map(\.id) == [4, 7])
            #expect(try store.messages(in: "a", before: 7, limit: 5).map(\.id) == [1, 4])
        }
        // Each read ended its snapshot: what is written next is read next.
        _ = try store.append([MessageDraft(room: "a", user: "leia", text: "m10", kind: .message)], timestamp: 2)
        #expect(try ids(.room("a")) == ([1, 4, 7, 10], 10))
        #expect(try ids(after: 9, .all) == ([10], 10))
        #expect(try store.latest(in: "a", limit: 1).map(\.id) == [10])
    }
}
