import Foundation
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
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-tests")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("durability-\(UUID().uuidString).sqlite").path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        do {
            let store = try SQLiteMessageStore(path: path)
            #expect(try store.synchronousSetting() == 2)
            _ = try store.append([MessageDraft(room: "lobby", user: "luke", text: "kept", kind: .message)], timestamp: 1)
        }
        let reopened = try SQLiteMessageStore(path: path)
        #expect(try reopened.synchronousSetting() == 2)
        #expect(try reopened.lastAssignedID() == 1)
    }
}
