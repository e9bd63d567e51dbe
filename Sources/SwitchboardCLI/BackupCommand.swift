import ArgumentParser
import Foundation
import Switchboard
import SwitchboardCore
import SwitchboardStore

/// `switchboard backup`: the SQLite database and its uploads, copied into a
/// new folder while the server runs (see ``ServerBackup``).
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy a server's SQLite database and its uploads into a new folder, while it runs.",
        discussion: """
            The copy is one consistent moment of the database (every message acknowledged before it), \
            then the uploads' files it names. Restore by starting a server on it: \
            switchboard serve --db FOLDER/switchboard.sqlite --media-dir FOLDER/media \
            (or stop the server and copy both back). On PostgreSQL use pg_dump: the uploads are in the database.
            """)

    @Option(help: "The SQLite file the server uses (or SWITCHBOARD_DB).")
    var db: String?

    @Option(name: .customLong("media-dir"), help: "The server's --media-dir (default: media/ beside the database).")
    var mediaDir: String?

    @Option(help: "A new (or empty) folder for the backup.")
    var to: String

    func run() throws {
        let database = db ?? ProcessInfo.processInfo.environment["SWITCHBOARD_DB"].flatMap { $0.isEmpty ? nil : $0 } ?? "switchboard.sqlite"
        var server = ChatServerConfiguration(databasePath: database)
        server.mediaDirectory = mediaDir
        let backup: ServerBackup
        do {
            backup = try ServerBackup.make(database: database, mediaDirectory: server.resolvedMediaDirectory, into: to)
        } catch {
            FileHandle.standardError.write(Data("switchboard backup: \(error)\n".utf8))
            throw ExitCode.failure
        }
        print("backed up \(backup.snapshot.messages) messages and \(backup.files) upload file(s) (\(ByteSize.describe(backup.bytes))) to \(backup.folder)")
        if !backup.missing.isEmpty {
            print("\(backup.missing.count) upload(s) the database names had no file (deleted since, or lost): \(backup.missing.joined(separator: " "))")
        }
        print("restore: switchboard serve --db \(backup.databasePath) --media-dir \(backup.mediaPath)")
    }
}
