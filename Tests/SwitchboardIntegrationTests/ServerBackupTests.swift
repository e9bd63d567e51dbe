import Foundation
import Synchronization
import Testing
import Switchboard
import SwitchboardCore
import SwitchboardLoad
import SwitchboardStore
import SwitchboardTesting

/// `switchboard backup` while the server writes: the copy is one consistent
/// moment (every message acknowledged before it began, ids without a gap),
/// a server starts on it and serves the same messages, and a backup that
/// cannot be made leaves nothing behind.
@Suite("Backups of a running server")
struct ServerBackupTests {
    static func folder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-backup-\(UUID().uuidString)").path
    }

    @Test func aBackupTakenDuringPublishesHoldsEveryAcknowledgedMessageAndServes() throws {
        let server = try TestServer()
        for index in 1...50 { _ = try server.client.publish(text: "before \(index)") }
        // Publishes go on, on another connection, while the backup is made.
        final class Writes: Sendable {
            let stop = Atomic<Bool>(false)
            let acknowledged = Atomic<Int>(0)
        }
        let (writes, port) = (Writes(), server.port)
        let writer = Thread {
            let client = TestHTTPClient(port: port)
            while !writes.stop.load(ordering: .relaxed), (try? client.publish(text: "during")) != nil {
                writes.acknowledged.add(1, ordering: .relaxed)
            }
        }
        writer.start()
        while writes.acknowledged.load(ordering: .relaxed) < 20 { Thread.sleep(forTimeInterval: 0.005) }
        let target = Self.folder()
        let backup = try ServerBackup.make(database: server.databasePath, mediaDirectory: server.configuration.resolvedMediaDirectory,
                                           into: target)
        writes.stop.store(true, ordering: .relaxed)
        while !writer.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        #expect(backup.snapshot.messages >= 70)
        #expect(backup.files == 0 && backup.missing.isEmpty)
        let mode = try FileManager.default.attributesOfItem(atPath: backup.databasePath)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(!FileManager.default.fileExists(atPath: backup.databasePath + ".partial"))

        // A server started on the copy serves the same messages, ids 1...N.
        let restored = try TestServer(databasePath: backup.databasePath)
        let copied = try restored.client.get("/api/rooms/lobby/messages?since=0&limit=1000").page().messages
        let live = try server.client.get("/api/rooms/lobby/messages?since=0&limit=1000").page().messages
        #expect(copied.map(\.id) == Array(1...Int64(copied.count)))
        #expect(copied.count == backup.snapshot.messages)
        #expect(copied.map(\.text) == Array(live.prefix(copied.count)).map(\.text))
        #expect(Array(copied.prefix(50)).map(\.text) == (1...50).map { "before \($0)" })
        restored.stop()
        try? FileManager.default.removeItem(atPath: target)
    }

    @Test func aBackupThatCannotBeMadeSaysWhyAndLeavesNothing() throws {
        let server = try TestServer()
        _ = try server.client.publish(text: "kept")
        let media = server.configuration.resolvedMediaDirectory
        // Into a folder that holds something: refused, the folder untouched.
        let full = Self.folder()
        try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: full + "/notes.txt", contents: Data("mine".utf8)))
        #expect(throws: BackupError.self) { try ServerBackup.make(database: server.databasePath, mediaDirectory: media, into: full) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: full) == ["notes.txt"])
        // From what is not a Switchboard database, or none, or PostgreSQL: nothing made.
        let notADatabase = full + "/notes.txt"
        for database in [notADatabase, full + "/missing.sqlite", "postgres://switchboard@localhost/chat", ":memory:"] {
            let target = Self.folder()
            #expect(throws: BackupError.self) { try ServerBackup.make(database: database, mediaDirectory: media, into: target) }
            #expect(!FileManager.default.fileExists(atPath: target), "\(database)")
        }
        // Into an empty folder that exists: made there.
        let empty = Self.folder()
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        #expect(try ServerBackup.make(database: server.databasePath, mediaDirectory: media, into: empty).snapshot.messages == 1)
        try? FileManager.default.removeItem(atPath: full)
        try? FileManager.default.removeItem(atPath: empty)
    }
}
