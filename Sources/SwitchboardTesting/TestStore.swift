import Foundation
import Logging
import SwitchboardCore
import SwitchboardPostgres
import SwitchboardStore

/// One of the real stores a store test runs on, made fresh: a SQLite file,
/// SQLite in memory and, when `Scripts/test.sh` started one, PostgreSQL (a
/// database of its own) (``every()``).
public struct TestStore {
    /// What both stores are.
    public typealias Store = MessageStore & PushStore & ConversationStore & WebhookStore & MediaStore

    /// Says which one it is in a failure's message.
    public let name: String
    public let store: any Store
    /// The SQLite file, to open again (nil for the others).
    public let path: String?

    /// A fresh one of each store.
    public static func every() throws -> [TestStore] {
        let path = try temporaryPath("store")
        var stores = [
            TestStore(name: "SQLite file", store: try SQLiteMessageStore(path: path), path: path),
            TestStore(name: "SQLite in memory", store: try SQLiteMessageStore(path: ":memory:"), path: nil),
        ]
        if TestPostgres.serverURL != nil {
            let store = try PostgresMessageStore(url: PostgresURL(TestPostgres.freshDatabase()), nodeID: "test", logger: Logger(label: "test"))
            stores.append(TestStore(name: "PostgreSQL", store: store, path: nil))
        }
        return stores
    }

    /// A new SQLite file's path in the temporary directory.
    public static func temporaryPath(_ prefix: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-tests")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("\(prefix)-\(UUID().uuidString).sqlite").path
    }

    /// Removes a SQLite file with its WAL and shared memory.
    public static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// Closes the store and removes its file.
    public func discard() {
        try? store.close()
        if let path { Self.remove(path) }
    }
}
