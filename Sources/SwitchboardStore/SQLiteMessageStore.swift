import Foundation
import GRDB
import SwitchboardCore

/// Messages in an SQLite database through GRDB: a WAL-mode pool for a file
/// (readers never wait for the writer), a queue for `:memory:`.
///
/// Ids come from `INTEGER PRIMARY KEY AUTOINCREMENT`, so they increase
/// strictly and are never reused, even after the newest message is deleted.
/// `synchronous = FULL`: an append returns only once the commit is on disk.
public final class SQLiteMessageStore: MessageStore {
    let writer: any DatabaseWriter
    private let path: String
    /// Who keeps a push subscription, so that most messages skip the push queue.
    let pushSubscribers = PushSubscriberKeys()
    /// When this was a backup's copy, at its first start: the last message id before the ids moved on.
    public let idsMovedOnAfter: Int64?

    /// Opens (creating if needed) the database at `path`, or an in-memory one
    /// for `:memory:`, and brings its schema up to date.
    public init(path: String) throws {
        // Before the first connection of the process (SQLiteProcessSettings).
        _ = SQLiteProcessSettings.applied
        self.path = path
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        do {
            if path == ":memory:" {
                writer = try DatabaseQueue(configuration: configuration)
            } else {
                writer = try DatabasePool(path: path, configuration: configuration)
            }
            // Set on the writing connection once it is open: a pool turns WAL on
            // after `prepareDatabase` runs, and with it `synchronous = NORMAL`
            // (commits not synced: a power loss could take acknowledged messages).
            // `secure_delete`: what an unsend or a deletion frees is overwritten with zeros, so an unsent text is gone from the file.
            try writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL; PRAGMA secure_delete = ON") }
            try Self.refuseIfNewer(writer)
            try Self.migrator.migrate(writer)
            idsMovedOnAfter = try writer.write(Self.moveIDsOnIfBackup)
            // `/healthz`'s probe table, made once: GRDB empties a connection's
            // statement cache after every `CREATE`, so a probe that made it each
            // time had the next commit compile all its statements again.
            try writer.writeWithoutTransaction { db in try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS health_probe(x)") }
            // The message inserts of 1 to 32 rows compiled now, after the last
            // `CREATE`: compiled at the first group of each size, they were a
            // prepare of up to 380,000 instructions on the commit thread, in
            // a publish's wait, for the first minutes of a busy server.
            try writer.writeWithoutTransaction { db in try MessageInsert.compileAll(in: db) }
            try writer.readInCompiledTransaction { db in try pushSubscribers.load(db) }
        } catch {
            throw StoreOpenError(path: path, underlying: error)
        }
    }

    public func append(_ drafts: [MessageDraft], timestamp: Int64) throws -> [Message] {
        try commit(drafts, timestamp: timestamp).compactMap { $0 }
    }

    /// One transaction, so one sync to disk, for the whole group. A
    /// conversation event changes membership in the same transaction; a
    /// second direct conversation for a pair is not stored (nil). A draft
    /// whose user already sent its client id stores nothing: the message
    /// stored then is returned, `replayed`.
    public func commit(_ drafts: [MessageDraft], timestamp: Int64) throws -> [Message?] {
        // Drafts read in place, field by field (an element as an argument or
        // in an iteration is a copy of the draft, its references retained and released).
        let stored = try drafts.withUnsafeBufferPointer { drafts in
            try writer.writeInCompiledTransaction { db in try Self.store(drafts, timestamp: timestamp, in: db) }
        }
        // An unsend's old text is still in the WAL's earlier frames: checkpointed
        // into the (secure_delete) file and the WAL emptied, where no reader holds it
        // (by index: `contains(where:)` copied every message stored).
        if stored.indices.contains(where: { stored[$0]?.kind == .delete && stored[$0]?.target != nil }) {
            _ = try? writer.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        }
        return stored
    }

    /// Stores a group's drafts in order, in its transaction: each run of
    /// plain messages one statement of as many rows (``MessageInsert``),
    /// any other draft a statement of its own, in its place.
    private static func store(_ drafts: UnsafeBufferPointer<MessageDraft>, timestamp: Int64, in db: Database) throws -> [Message?] {
        var stored: [Message?] = []
        stored.reserveCapacity(drafts.count)
        var next = drafts.startIndex
        while next < drafts.endIndex {
            var end = next
            while end < drafts.endIndex, end - next < MessageInsert.mostRows, MessageInsert.isPlain(drafts.baseAddress! + end) {
                end += 1
            }
            guard end > next else {
                stored.append(try store(drafts[next], timestamp: timestamp, insert: MessageInsert(db), in: db))
                next += 1
                continue
            }
            let run = UnsafeBufferPointer(rebasing: drafts[next..<end])
            let first = try MessageInsert(db, rows: run.count).run(plain: run, timestamp: timestamp)
            for index in run.indices {
                let message = Message(storing: run.baseAddress! + index, id: first + Int64(index), timestamp: timestamp)
                try ConversationCounts.record(message, in: db)
                stored.append(message)
            }
            next = end
        }
        return stored
    }

    /// Stores one draft of a group that is not plain, in its transaction:
    /// an act or reply after its target is looked up, a client id sent
    /// before answered with the message it stored, a conversation event
    /// with its membership.
    private static func store(_ draft: MessageDraft, timestamp: Int64, insert: MessageInsert, in db: Database) throws -> Message? {
        guard let event = draft.event else {
            // A client id sent before is answered with its message before anything is
            // looked up or inserted (a reply or act's target must not change twice; an
            // insert the unique index refused took an id: ``wasSent(_:by:in:)``).
            if let clientID = draft.clientID, try Self.wasSent(clientID, by: draft.user, in: db) {
                guard let earlier = try Self.sent(clientID, by: draft.user, in: db) else { throw DatabaseError(message: "client id lost") }
                return earlier
            }
            if let target = draft.target ?? draft.replyTo, try !Self.applyAct(draft, to: target, timestamp: timestamp, in: db) {
                return nil
            }
            try insert.run(draft, timestamp: timestamp, event: nil,
                           media: draft.media.map { String(decoding: MessageJSON.encode($0), as: UTF8.self) },
                           replyTo: draft.replyTo, target: draft.target, detail: StoredActFields.detail(of: draft),
                           clientID: draft.clientID)
            if let clientID = draft.clientID, db.changesCount == 0 {
                guard let earlier = try Self.sent(clientID, by: draft.user, in: db) else {
                    throw DatabaseError(message: "client id \(clientID) conflicts, yet no message has it")
                }
                return earlier
            }
            let message = draft.stored(id: db.lastInsertedRowID, timestamp: timestamp)
            if let media = draft.media { try Self.recordCarriers(media, of: message, in: db) }
            try ConversationCounts.record(message, in: db)
            return message
        }
        if event.type == .created, event.direct == true, let members = event.members, members.count == 2,
           try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM conversation WHERE direct_key = ?"),
                             arguments: [ConversationRoom.directKey(members[0], members[1])]) == true {
            return nil
        }
        try insert.run(draft, timestamp: timestamp, event: String(decoding: MessageJSON.encode(event), as: UTF8.self),
                       media: nil, replyTo: nil, target: nil, detail: nil, clientID: nil)
        let message = draft.stored(id: db.lastInsertedRowID, timestamp: timestamp)
        if message.room != draft.room {
            try db.cachedStatement(sql: "UPDATE message SET room = ? WHERE id = ?").execute(arguments: [message.room, message.id])
        }
        try Self.apply(event, of: message, in: db)
        try ConversationCounts.record(message, in: db)
        return message
    }

    /// Reads are compiled once per connection (SQL fixed whatever the
    /// filter: its rooms as one JSON argument): compiling this one cost about
    /// 340,000 instructions, at every read of the log past the recent
    /// messages and every event webhooks deliver.
    public func messages(after cursor: Int64, in filter: RoomFilter, limit: Int) throws -> StoreBatch {
        try writer.readInCompiledTransaction { db in
            let highWater = try Self.lastAssignedID(db)
            let rooms = filter.names
            let (condition, arguments): (String, StatementArguments) = switch rooms.count {
            case 0: ("", [cursor, limit])
            case 1: (" AND room = ?", [cursor, rooms[0], limit])
            default: (" AND room IN (SELECT value FROM json_each(?))",
                      [cursor, Self.jsonList(rooms), limit])
            }
            let select = try db.cachedStatement(sql: "SELECT \(Self.columns) FROM message WHERE id > ?\(condition) ORDER BY id LIMIT ?")
            let messages = try MessageRows.fetchAll(select, arguments: arguments)
            let scanned = messages.count == limit ? messages.last!.id : max(cursor, highWater)
            return StoreBatch(messages: messages, scannedThrough: scanned)
        }
    }

    public func latest(in room: String, limit: Int) throws -> [Message] {
        try writer.readInCompiledTransaction { db in
            let select = try db.cachedStatement(sql: "SELECT \(Self.columns) FROM message WHERE room = ? ORDER BY id DESC LIMIT ?")
            return try MessageRows.fetchAll(select, arguments: [room, limit]).reversed()
        }
    }

    public func messages(in room: String, before id: Int64, limit: Int) throws -> [Message] {
        try writer.readInCompiledTransaction { db in
            let select = try db.cachedStatement(
                sql: "SELECT \(Self.columns) FROM message WHERE room = ? AND id < ? ORDER BY id DESC LIMIT ?")
            return try MessageRows.fetchAll(select, arguments: [room, id, limit]).reversed()
        }
    }

    public func delete(id: Int64) throws -> Message? {
        try writer.write { db in
            guard let message = try MessageRows.fetchOne(db.cachedStatement(sql: Self.selectByID), arguments: [id]) else { return nil }
            try db.execute(sql: "DELETE FROM message WHERE id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM message_media WHERE message_id = ?", arguments: [id])
            try ConversationCounts.forget(message, in: db)
            return message
        }
    }

    public func lastAssignedID() throws -> Int64 {
        try writer.readInCompiledTransaction(Self.lastAssignedID)
    }

    public func rooms() throws -> [RoomSummary] {
        try writer.readInCompiledTransaction { db in
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT room, COUNT(*) AS count, MAX(id) AS last FROM message
                GROUP BY room ORDER BY room
                """)).map { RoomSummary(name: $0["room"], messageCount: $0["count"], lastID: $0["last"]) }
        }
    }

    public func sizeInBytes() -> Int64 {
        guard path != ":memory:" else { return 0 }
        return [path, path + "-wal"].reduce(0) { total, file in
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.int64Value ?? 0
            return total + size
        }
    }

    public func close() throws {
        if let pool = writer as? DatabasePool {
            // The writer checkpoints and empties the WAL: GRDB closes it before the
            // readers, and the last to close (a reader) cannot, so the WAL would stay.
            _ = try? pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
            try pool.close()
        } else if let queue = writer as? DatabaseQueue {
            try queue.close()
        }
    }

    private static func lastAssignedID(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT seq FROM sqlite_sequence WHERE name = 'message'")) ?? 0
    }

    /// The columns ``MessageRows`` reads, in its order.
    static let columns = "id, room, user, text, kind, ts, event, media, reply_to, target, detail, state, client_id"

    /// One message by its id (``MessageRows``).
    static let selectByID = "SELECT \(columns) FROM message WHERE id = ?"
}
