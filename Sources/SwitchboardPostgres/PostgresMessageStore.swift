import Foundation
import Logging
import PostgresNIO
import SwitchboardCore

/// Messages in PostgreSQL, shared by every node started on the same
/// database. Ids come from one counter row locked by each commit, so they
/// are assigned and become visible in one order across nodes (see
/// ``PostgresSchema``). A group commit is one call of `switchboard_commit`:
/// one round trip, one transaction, one sync to disk.
///
/// Every call blocks its thread until the database answers, at most
/// ``PostgresConnections/timeoutSeconds``: a database gone away makes
/// publishes fail fast (`503 store_unavailable`), and the next call
/// reconnects.
public final class PostgresMessageStore: MessageStore {
    /// This node's name in the database (its presence claims and lease).
    public let nodeID: String
    let connections: PostgresConnections

    /// Connects, and creates or updates the schema.
    /// - Parameters:
    ///   - url: the database.
    ///   - nodeID: unique per running process.
    ///   - timeoutSeconds: how long any one call may wait for the database.
    public init(url: PostgresURL, nodeID: String, timeoutSeconds: Double = 5, logger: Logger) throws {
        self.nodeID = nodeID
        connections = PostgresConnections(url: url, timeoutSeconds: timeoutSeconds, logger: logger)
        do {
            // Several nodes share the database: one started from an older
            // version (a rolling upgrade, or back) runs, and says so.
            let found = try PostgresSchema.migrate(connections)
            if found > PostgresSchema.version {
                logger.warning("""
                    the database's schema is version \(found), from a newer Switchboard; this node knows \(PostgresSchema.version). \
                    It runs beside the newer nodes (as in a rolling upgrade); upgrade it to match them
                    """)
            }
        } catch {
            connections.close()
            throw PostgresOpenError(url: url.redacted, underlying: error)
        }
    }

    public func append(_ drafts: [MessageDraft], timestamp: Int64) throws -> [Message] {
        try commit(drafts, timestamp: timestamp).compactMap { $0 }
    }

    /// Joins and leaves are this node's presence claims in the shared database.
    public var sharesPresence: Bool { true }

    public func commit(_ drafts: [MessageDraft], timestamp: Int64) throws -> [Message?] {
        guard !drafts.isEmpty else { return [] }
        let rooms = drafts.map(\.room), users = drafts.map(\.user), texts = drafts.map(\.text)
        let kinds = drafts.map(\.kind.rawValue), transports = drafts.map { $0.transport?.rawValue ?? "" }
        let events = drafts.map { $0.event.map { String(decoding: MessageJSON.encode($0), as: UTF8.self) } ?? "" }
        let effects = drafts.map { $0.event.map(Self.effects) ?? "" }
        let media = drafts.map { $0.media.map { String(decoding: MessageJSON.encode($0), as: UTF8.self) } ?? "" }
        let replyTos = drafts.map { $0.replyTo ?? 0 }, targets = drafts.map { $0.target ?? 0 }
        let details = drafts.map { StoredActFields.detail(of: $0) ?? "" }, clientIDs = drafts.map { $0.clientID ?? "" }
        let result = try connections.query("""
            SELECT switchboard_commit(\(nodeID), \(timestamp), \(rooms), \(users), \(texts), \(kinds), \(transports),
                                      \(events), \(effects), \(media), \(replyTos), \(targets), \(details), \(clientIDs))
            """)
        guard let ids = try result.first?.decode([Int64].self), ids.count == drafts.count else {
            throw PostgresStoreError.unexpectedAnswer("switchboard_commit returned no id per draft")
        }
        // A client id sent before: the message stored then (its id negated).
        let earlier = ids.contains { $0 < 0 } ? try sentBefore(ids.filter { $0 < 0 }.map { -$0 }) : [:]
        return zip(drafts, ids).map { draft, id in
            id < 0 ? earlier[-id] : (id == 0 ? nil : draft.stored(id: id, timestamp: timestamp))
        }
    }

    public func messages(after cursor: Int64, in filter: RoomFilter, limit: Int) throws -> StoreBatch {
        try connections.withConnection { connection in
            // The high-water mark first: every id up to it is committed, so
            // a read bounded by it can say it scanned that far.
            let highWater = try lastAssignedID(on: connection)
            let rows: PostgresQueryResult
            let rooms = filter.names
            if rooms.isEmpty {
                rows = try connections.query("""
                    SELECT \(unescaped: Self.columns) FROM switchboard_messages
                    WHERE id > \(cursor) AND id <= \(highWater) ORDER BY id LIMIT \(limit)
                    """, on: connection)
            } else {
                rows = try connections.query("""
                    SELECT \(unescaped: Self.columns) FROM switchboard_messages
                    WHERE id > \(cursor) AND id <= \(highWater) AND room = ANY(\(rooms)) ORDER BY id LIMIT \(limit)
                    """, on: connection)
            }
            let messages = try rows.map(Self.message)
            let scanned = messages.count == limit ? messages.last!.id : max(cursor, highWater)
            return StoreBatch(messages: messages, scannedThrough: scanned)
        }
    }

    public func messages(in room: String, before id: Int64, limit: Int) throws -> [Message] {
        try connections.query("""
            SELECT \(unescaped: Self.columns) FROM switchboard_messages
            WHERE room = \(room) AND id < \(id) ORDER BY id DESC LIMIT \(limit)
            """).map(Self.message).reversed()
    }

    public func latest(in room: String, limit: Int) throws -> [Message] {
        try connections.query("""
            SELECT \(unescaped: Self.columns) FROM switchboard_messages
            WHERE room = \(room) ORDER BY id DESC LIMIT \(limit)
            """).map(Self.message).reversed()
    }

    public func delete(id: Int64) throws -> Message? {
        try connections.query("""
            WITH gone AS (DELETE FROM switchboard_messages WHERE id = \(id) RETURNING \(unescaped: Self.columns)),
                 carried AS (DELETE FROM switchboard_message_media WHERE message_id = \(id)),
                 counts AS (UPDATE switchboard_members m SET
                                unread = greatest(0, m.unread - (g.kind = 'message' AND m.read_id < g.id AND m.username <> g.username
                                                                 AND m.user_key <> lower(g.username))::int),
                                last_id = CASE WHEN m.last_id = g.id THEN (SELECT max(x.id) FROM switchboard_messages x
                                              WHERE x.room = g.room AND x.id <> g.id AND x.kind NOT IN ('edit', 'reaction', 'delete'))
                                          ELSE m.last_id END
                            FROM gone g WHERE m.room = g.room)
            SELECT * FROM gone
            """).first.map(Self.message)
    }

    public func lastAssignedID() throws -> Int64 {
        try connections.withConnection(lastAssignedID(on:))
    }

    private func lastAssignedID(on connection: PostgresConnection) throws -> Int64 {
        guard let row = try connections.query("SELECT last_id FROM switchboard_counter", on: connection).first else {
            throw PostgresStoreError.unexpectedAnswer("switchboard_counter is empty")
        }
        return try row.decode(Int64.self)
    }

    public func rooms() throws -> [RoomSummary] {
        try connections.query("""
            SELECT room, count(*)::bigint, max(id) FROM switchboard_messages GROUP BY room ORDER BY room
            """).map { row in
            let (name, count, last) = try row.decode((String, Int64, Int64).self)
            return RoomSummary(name: name, messageCount: Int(count), lastID: last)
        }
    }

    /// A timeout or a connection that is gone: the database did not answer.
    public func didNotAnswer(_ error: any Error) -> Bool {
        (error as? PostgresStoreError)?.isUnanswered ?? false
    }

    public func checkWritable() throws {
        let writable = try connections.query("SELECT NOT pg_is_in_recovery()").first?.decode(Bool.self) ?? false
        if !writable { throw PostgresStoreError.unexpectedAnswer("the database is read-only (in recovery)") }
    }

    /// The row of `switchboard_health` written and committed: it fails
    /// where a commit would (a read-only or full database).
    public func checkDurableWrite() throws {
        try connections.query("""
            INSERT INTO switchboard_health (one, at) VALUES (true, \(Int64(Date().timeIntervalSince1970)))
            ON CONFLICT (one) DO UPDATE SET at = EXCLUDED.at
            """)
    }

    public func sizeInBytes() -> Int64 {
        (try? connections.query("SELECT pg_total_relation_size('switchboard_messages')").first?.decode(Int64.self)) ?? 0
    }

    public func close() throws {
        connections.close()
    }

    /// The columns ``message(_:)`` reads, in its order.
    static let columns = "id, room, username, text, kind, ts, event, media, reply_to, target, detail, state, client_id"

    static func message(_ row: PostgresRow) throws -> Message {
        let (id, room, user, text, kind, ts, event, media, replyTo, target, detail, standing, clientID) =
            try row.decode((Int64, String, String, String, String, Int64, String?, String?, Int64?, Int64?, String?, String?, String?).self)
        guard let kind = MessageKind(rawValue: kind) else {
            throw PostgresStoreError.unexpectedAnswer("message \(id) has kind \(kind)")
        }
        var message = Message(id: id, room: room, user: user, text: text, kind: kind, ts: ts,
                              event: event.flatMap { try? JSONDecoder().decode(ConversationEvent.self, from: Data($0.utf8)) },
                              media: media.flatMap { try? JSONDecoder().decode([MediaAttachment].self, from: Data($0.utf8)) })
        if replyTo != nil || target != nil || detail != nil || standing != nil {
            StoredActFields.restore(&message, replyTo: replyTo, target: target, detail: detail, standing: standing)
        }
        message.clientID = clientID
        return message
    }

    /// The messages with these ids, marked `replayed`, by id.
    private func sentBefore(_ ids: [Int64]) throws -> [Int64: Message] {
        var found: [Int64: Message] = [:]
        for var message in try connections.query("SELECT \(unescaped: Self.columns) FROM switchboard_messages WHERE id = ANY(\(ids))")
            .map(Self.message) {
            message.replayed = true
            found[message.id] = message
        }
        return found
    }

    public func replies(to id: Int64, in room: String, after cursor: Int64, limit: Int) throws -> [Message] {
        try connections.query("""
            SELECT \(unescaped: Self.columns) FROM switchboard_messages
            WHERE reply_to = \(id) AND room = \(room) AND id > \(cursor) AND kind = 'message' ORDER BY id LIMIT \(limit)
            """).map(Self.message)
    }
}
