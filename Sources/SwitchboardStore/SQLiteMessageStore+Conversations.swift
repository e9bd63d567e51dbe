import GRDB
import SwitchboardCore

/// Conversations and their members beside the messages. A membership
/// change is written by the commit that stores its event (``apply(_:of:in:)``);
/// read markers and mutes are each member's own rows.
extension SQLiteMessageStore: ConversationStore {
    /// Applies `event`, stored as `message`, inside the commit's transaction.
    static func apply(_ event: ConversationEvent, of message: Message, in db: Database) throws {
        let room = message.room
        switch event.type {
        case .created:
            let members = event.members ?? [event.actor]
            let directKey = event.direct == true && members.count == 2 ? ConversationRoom.directKey(members[0], members[1]) : nil
            try db.cachedStatement(sql: "INSERT INTO conversation (room, title, direct_key, created_by, created) VALUES (?, ?, ?, ?, ?)")
                .execute(arguments: [room, event.title ?? "", directKey, event.actor, message.ts])
            for (ordinal, member) in members.enumerated() { try addMember(member, to: room, at: message.id, ordinal: ordinal, in: db) }
        case .renamed:
            try db.cachedStatement(sql: "UPDATE conversation SET title = ? WHERE room = ?").execute(arguments: [event.title ?? "", room])
        case .added:
            if let user = event.user { try addMember(user, to: room, at: message.id, in: db) }
        case .removed, .left:
            try db.cachedStatement(sql: "DELETE FROM conversation_member WHERE room = ? AND user_key = ?")
                .execute(arguments: [room, (event.user ?? event.actor).lowercased()])
        }
    }

    /// Members are listed as they joined: by the message that added them, then their place in the creation's list.
    private static func addMember(_ user: String, to room: String, at id: Int64, ordinal: Int = 0, in db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO conversation_member (room, user, user_key, since_id, read_id, ordinal) VALUES (?, ?, ?, ?, ?, ?)
            """).execute(arguments: [room, user, user.lowercased(), id, id, ordinal])
    }

    public func conversations() throws -> [Conversation] {
        try writer.readInCompiledTransaction { db in
            var members: [String: [String]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT room, user FROM conversation_member ORDER BY since_id, ordinal") {
                members[row["room"], default: []].append(row["user"])
            }
            return try Row.fetchAll(db, sql: "SELECT room, title, direct_key, created_by FROM conversation ORDER BY created").map { row in
                let room: String = row["room"]
                let directKey: String? = row["direct_key"]
                return Conversation(room: room, title: row["title"], direct: directKey != nil, createdBy: row["created_by"],
                                    members: members[room] ?? [])
            }
        }
    }

    /// Every statement a request reads or writes here is compiled once per
    /// connection, in a compiled transaction: compiled at each call, a list
    /// of 30 conversations (two statements for each) with a read marker and
    /// `/api/me` cost 20 million instructions. Three statements a page,
    /// whatever its length (its conversations, their members, their last
    /// messages): two for each conversation, 10,000 took 150 ms.
    public func summaries(for user: String, after cursor: ConversationCursor?, limit: Int) throws -> ConversationPage {
        try writer.readInCompiledTransaction { db in
            // One more than asked: whether a page follows.
            let rows = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT \(Self.summaryColumns) FROM conversation_member m JOIN conversation c ON c.room = m.room
                WHERE m.user_key = ?1
                  AND (?2 IS NULL OR COALESCE(m.last_id, 0) < ?2 OR (COALESCE(m.last_id, 0) = ?2 AND m.room < ?3))
                ORDER BY COALESCE(m.last_id, 0) DESC, m.room DESC LIMIT ?4
                """), arguments: [user.lowercased(), cursor?.last, cursor?.room, limit + 1])
            let page = Array(rows.prefix(limit))
            let next = rows.count > limit ? page.last.map { ConversationCursor(last: $0["last_id"], room: $0["room"]) } : nil
            return ConversationPage(summaries: try Self.summaries(page, in: db), next: next)
        }
    }

    public func summary(for user: String, in room: String) throws -> ConversationSummary? {
        try writer.readInCompiledTransaction { db in
            let rows = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT \(Self.summaryColumns) FROM conversation_member m JOIN conversation c ON c.room = m.room
                WHERE m.user_key = ? AND m.room = ?
                """), arguments: [user.lowercased(), room])
            return try Self.summaries(rows, in: db).first
        }
    }

    /// A member's row of the list: the conversation, and the member's own figures.
    private static let summaryColumns = "c.room, c.title, c.direct_key, c.created_by, COALESCE(m.last_id, 0) AS last_id, m.muted, m.read_id, m.unread"

    /// The summaries of `rows` (``summaryColumns``), in their order: their
    /// members and last messages read for those rooms only.
    private static func summaries(_ rows: [Row], in db: Database) throws -> [ConversationSummary] {
        guard !rows.isEmpty else { return [] }
        let rooms: [String] = rows.map { $0["room"] }
        var members: [String: [String]] = [:]
        for row in try Row.fetchAll(db.cachedStatement(sql: """
            SELECT room, user FROM conversation_member WHERE room IN (SELECT value FROM json_each(?))
            ORDER BY room, since_id, ordinal
            """), arguments: [jsonList(rooms)]) {
            members[row["room"], default: []].append(row["user"])
        }
        let ids = rows.map { $0["last_id"] as Int64 }.filter { $0 > 0 }
        let lastMessages = try MessageRows.fetchAll(db.cachedStatement(sql: """
            SELECT \(Self.columns) FROM message WHERE id IN (SELECT value FROM json_each(?))
            """), arguments: [jsonList(ids)])
        let lasts = Dictionary(lastMessages.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return rows.map { row in
            let room: String = row["room"]
            let directKey: String? = row["direct_key"]
            let conversation = Conversation(room: room, title: row["title"], direct: directKey != nil,
                                            createdBy: row["created_by"], members: members[room] ?? [])
            return ConversationSummary(conversation: conversation, muted: row["muted"], last: lasts[row["last_id"] as Int64],
                                       unread: row["unread"], read: row["read_id"])
        }
    }

    public func unread(for user: String) throws -> Int {
        try writer.readInCompiledTransaction { db in
            try Int.fetchOne(db.cachedStatement(sql: "SELECT COALESCE(SUM(unread), 0) FROM conversation_member WHERE user_key = ? AND muted = 0"),
                             arguments: [user.lowercased()]) ?? 0
        }
    }

    public func readMarkers(in room: String) throws -> [String: Int64] {
        try writer.readInCompiledTransaction { db in
            var markers: [String: Int64] = [:]
            for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT user, read_id FROM conversation_member WHERE room = ?"),
                                        arguments: [room]) {
                markers[row["user"]] = row["read_id"]
            }
            return markers
        }
    }

    public func markRead(room: String, user: String, id: Int64) throws -> Int64? {
        try writer.writeInCompiledTransaction { db in try ConversationCounts.markRead(room: room, key: user.lowercased(), id: id, in: db) }
    }

    public func setMuted(room: String, user: String, muted: Bool) throws -> Bool {
        try writer.writeInCompiledTransaction { db in
            try db.cachedStatement(sql: "UPDATE conversation_member SET muted = ? WHERE room = ? AND user_key = ?")
                .execute(arguments: [muted, room, user.lowercased()])
            return db.changesCount == 1
        }
    }
}
