#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GRDB
import SwitchboardCore

/// A consistent copy of a Switchboard SQLite database, taken while its
/// server runs (`switchboard backup`): `VACUUM INTO` copies what one read
/// transaction sees, so the server's commits go on meanwhile (WAL: a reader
/// waits for nobody and nobody waits for it), and the copy holds every
/// message acknowledged before it began, compacted, and marked as a
/// backup's (a server started on it moves its ids on past the original's:
/// SQLiteMessageStore+Backups). The copy is written
/// under a `.partial` name, checked, synced and only then renamed: an
/// interrupted backup leaves no file that looks whole.
public struct SQLiteSnapshot: Sendable {
    /// The messages in the copy.
    public let messages: Int
    /// The uploads the copy names: their id, and whether they have a thumbnail.
    public let media: [(id: String, thumbnail: Bool)]

    /// Copies the database at `source` to `destination`, a file that must not
    /// exist yet (mode 0600: it holds password hashes and the server's key).
    public static func take(of source: String, to destination: String) throws(BackupError) -> SQLiteSnapshot {
        guard FileManager.default.fileExists(atPath: source) else { throw BackupError("there is no database at \(source)") }
        guard !FileManager.default.fileExists(atPath: destination) else { throw BackupError("\(destination) exists already") }
        let partial = destination + ".partial"
        unlink(partial)
        do {
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(10)
            let original = try DatabaseQueue(path: source, configuration: configuration)
            try original.inDatabase { db in
                guard try db.tableExists("message") else { throw BackupError("\(source) is not a Switchboard database") }
                try db.execute(sql: "VACUUM INTO ?", arguments: [partial])
            }
            try original.close()
            // Marked as a backup's: a server started on it moves its ids on (SQLiteMessageStore+Backups).
            let marking = try DatabaseQueue(path: partial)
            try marking.write { db in try SQLiteMessageStore.markAsBackup(db, takenAt: Int64(Date().timeIntervalSince1970 * 1000)) }
            try marking.close()
            let copy = try DatabaseQueue(path: partial, configuration: configuration)
            let snapshot = try copy.read { db throws -> SQLiteSnapshot in
                let check = try String.fetchOne(db, sql: "PRAGMA quick_check")
                guard check == "ok" else { throw BackupError("the copy did not pass SQLite's check: \(check ?? "no answer")") }
                let messages = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM message") ?? 0
                let media = try db.tableExists("media")
                    ? Row.fetchAll(db, sql: "SELECT id, thumbnail_type IS NOT NULL AS thumbnail FROM media ORDER BY id")
                        .map { (id: $0["id"] as String, thumbnail: $0["thumbnail"] as Bool) }
                    : []
                return SQLiteSnapshot(messages: messages, media: media)
            }
            try copy.close()
            try keep(partial, as: destination)
            return snapshot
        } catch let error as BackupError {
            unlink(partial)
            throw error
        } catch {
            unlink(partial)
            throw BackupError("the copy of \(source) failed: \(error)")
        }
    }

    /// Keeps `partial` as `destination`, for its owner only.
    private static func keep(_ partial: String, as destination: String) throws(BackupError) {
        if let failure = DurableRename.keep(partial, as: destination, mode: 0o600) {
            throw BackupError("cannot keep \(destination): \(failure.step): \(String(cString: strerror(failure.errno)))")
        }
    }
}
