import Foundation
import GRDB
import Testing
import SwitchboardCore
import SwitchboardTesting
@testable import SwitchboardStore

/// A backup's copy hands out no id the original may have handed out after
/// the backup: its first start moves every id sequence on, once.
@Suite("A backup's ids")
struct BackupIDsTests {
    @Test func aCopysFirstStartMovesEveryIDOnOnce() throws {
        let path = try TestStore.temporaryPath("backup-ids")
        let copyPath = path + ".copy"
        defer { TestStore.remove(path); TestStore.remove(copyPath) }
        let draft = MessageDraft(room: "lobby", user: "luke", text: "before", kind: .message)
        do {
            let original = try SQLiteMessageStore(path: path)
            _ = try original.append([draft, draft, draft], timestamp: 1)
            try original.close()
        }
        // A backup of a backup's copy never started on: made, and marked once.
        let firstCopy = path + ".first"
        defer { TestStore.remove(firstCopy) }
        _ = try SQLiteSnapshot.take(of: path, to: firstCopy)
        _ = try SQLiteSnapshot.take(of: firstCopy, to: copyPath)

        let copy = try SQLiteMessageStore(path: copyPath)
        #expect(copy.idsMovedOnAfter == 3)
        let gap = SQLiteMessageStore.backupIDGap
        #expect(try copy.lastAssignedID() == 3 + gap)
        #expect(try copy.append([draft], timestamp: 2).map(\.id) == [4 + gap])
        // Every sequence moved on, those never inserted in too (they had no row: they would start at 1).
        let sequences = try copy.writer.read { db in
            try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT name, seq FROM sqlite_sequence").map { ($0["name"] as String, $0["seq"] as Int64) })
        }
        #expect(sequences == ["message": 4 + gap, "webhook_event": gap, "push_job": gap])
        // What is stored is as it was: the copy's messages keep their ids.
        #expect(try copy.messages(after: 0, in: .all, limit: 10).messages.map(\.id) == [1, 2, 3, 4 + gap])
        try copy.close()

        // Started again, the copy is a server's database like any: no second move.
        let again = try SQLiteMessageStore(path: copyPath)
        #expect(again.idsMovedOnAfter == nil)
        #expect(try again.append([draft], timestamp: 3).map(\.id) == [5 + gap])
        try again.close()
        // And the original never moves.
        let original = try SQLiteMessageStore(path: path)
        #expect(original.idsMovedOnAfter == nil)
        #expect(try original.append([draft], timestamp: 4).map(\.id) == [4])
        try original.close()
    }
}
