#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SwitchboardCore
import SwitchboardMedia
import SwitchboardPostgres
import SwitchboardStore

/// `switchboard backup`: a server's SQLite database and the uploads' files
/// it names, copied into a new folder while the server runs (or not), as a
/// folder a server can be started on: `switchboard serve --db
/// FOLDER/switchboard.sqlite --media-dir FOLDER/media`.
///
/// The database first (``SQLiteSnapshot``: one consistent moment), then
/// the files that moment names. A kept upload's file never changes and is
/// in its folder before its record is stored, so every file the copy names
/// is there unless it was deleted since (its message unsent or deleted, or
/// the admin's delete): those are listed in ``missing``. Files are written
/// as the server writes uploads (a temporary name, synced, renamed), and
/// the live folder is only read: its temporary files are in-progress uploads.
public struct ServerBackup: Sendable {
    /// The folder the backup is in.
    public let folder: String
    /// What the database's copy holds.
    public let snapshot: SQLiteSnapshot
    /// Files copied (originals and thumbnails).
    public let files: Int
    /// The copied files' bytes.
    public let bytes: Int64
    /// Uploads the copy names whose file was not in the media folder.
    public let missing: [String]

    /// The database's copy in `folder`.
    public var databasePath: String { folder + "/switchboard.sqlite" }
    /// The uploads' copy in `folder`.
    public var mediaPath: String { folder + "/media" }

    /// Backs up the SQLite database at `database`, with the uploads in
    /// `mediaDirectory`, into `folder`: a new folder, or an empty one (made
    /// mode 0700: the copy holds password hashes and the server's key).
    public static func make(database: String, mediaDirectory: String, into folder: String) throws(BackupError) -> ServerBackup {
        guard database != ":memory:", !PostgresURL.isPostgres(database) else {
            throw BackupError("only a SQLite file can be backed up this way; on PostgreSQL use pg_dump (the uploads are in the database)")
        }
        guard FileManager.default.fileExists(atPath: database) else { throw BackupError("there is no database at \(database)") }
        let existing = try? FileManager.default.contentsOfDirectory(atPath: folder)
        if let existing, !existing.isEmpty { throw BackupError("\(folder) is not empty: a backup goes into a new or empty folder") }
        if existing == nil, mkdir(folder, 0o700) != 0 {
            throw BackupError("cannot make \(folder): \(String(cString: strerror(errno)))")
        }
        chmod(folder, 0o700)
        do {
            return try copy(database, mediaDirectory, into: folder)
        } catch {
            // Nothing half-made is left: the folder as it was (gone, or empty).
            for made in existing == nil ? [folder] : [folder + "/switchboard.sqlite", folder + "/media"] {
                try? FileManager.default.removeItem(atPath: made)
            }
            throw error
        }
    }

    private static func copy(_ database: String, _ mediaDirectory: String, into folder: String) throws(BackupError) -> ServerBackup {
        let snapshot = try SQLiteSnapshot.take(of: database, to: folder + "/switchboard.sqlite")
        var (files, bytes, missing) = (0, Int64(0), [String]())
        if !snapshot.media.isEmpty {
            let copies: MediaDirectory
            do { copies = try MediaDirectory(path: folder + "/media") } catch { throw BackupError("cannot make \(folder)/media: \(error)") }
            for (id, thumbnail) in snapshot.media where MediaID.isValid(id) {
                for variant in thumbnail ? [MediaVariant.original, .thumbnail] : [.original] {
                    let source = MediaDirectory.file(id, variant, in: mediaDirectory)
                    guard let copied = try copy(source, into: copies, as: id, variant) else {
                        if variant == .original { missing.append(id) }
                        continue
                    }
                    files += 1
                    bytes += copied
                }
            }
        }
        return ServerBackup(folder: folder, snapshot: snapshot, files: files, bytes: bytes, missing: missing)
    }

    /// Copies the file at `source` into `copies` as `id`'s `variant`; its
    /// size, or nil when there is no such file.
    private static func copy(_ source: String, into copies: MediaDirectory, as id: String,
                             _ variant: MediaVariant) throws(BackupError) -> Int64? {
        let descriptor = open(source, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw BackupError("cannot read \(source): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        do {
            let copy = try copies.temporaryFile()
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            var total: Int64 = 0
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count >= 0 else { throw BackupError("cannot read \(source): \(String(cString: strerror(errno)))") }
                if count == 0 { break }
                try buffer.withUnsafeBytes { try copy.write(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
                total += Int64(count)
            }
            try copy.finish()
            try copies.keep(copy.path, as: id, variant)
            return total
        } catch let error as BackupError {
            throw error
        } catch {
            throw BackupError("cannot copy \(source): \(error)")
        }
    }
}
