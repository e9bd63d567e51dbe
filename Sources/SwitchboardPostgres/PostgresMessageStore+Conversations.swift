import PostgresNIO
import SwitchboardCore

/// Conversations and their members in the shared database. Membership is
/// changed by `switchboard_commit` with the event that changes it (as
/// ``effects(_:)`` describes it); read markers and mutes are each member's own.
extension PostgresMessageStore: ConversationStore {
    /// What `switchboard_commit` does for `event`, as JSON: the names'
    /// lower-cased keys and a direct pair's key are computed here, as the
    /// in-memory directory computes them, never by the database's collation.
    static func effects(_ event: ConversationEvent) -> String {
        struct Member: Encodable { var user: String; var key: String }
        struct Effects: Encodable {
            var type: String, actor: String, title: String?
            var directKey: String?, members: [Member]?, userKey: String?
            enum CodingKeys: String, CodingKey {
                case type, actor, title, members
                case directKey = "direct_key", userKey = "user_key"
            }
        }
        var effects = Effects(type: event.type.rawValue, actor: event.actor, title: event.title)
        switch event.type {
        case .created:
            let members = event.members ?? [event.actor]
            effects.members = members.map { Member(user: $0, key: $0.lowercased()) }
            if event.direct == true, members.count == 2 { effects.directKey = ConversationRoom.directKey(members[0], members[1]) }
            effects.title = event.title ?? ""
        case .added:
            effects.members = event.user.map { [Member(user: $0, key: $0.lowercased())] }
        case .removed, .left:
            effects.userKey = (event.user ?? event.actor).lowercased()
        case .renamed:
            effects.title = event.title ?? ""
        }
        return String(decoding: MessageJSON.encode(effects), as: UTF8.self)
    }

    public func conversations() throws -> [Conversation] {
        var members: [String: [String]] = [:]
        for row in try connections.query("SELECT room, username FROM switchboard_members ORDER BY since_id, ordinal") {
            let (room, user) = try row.decode((String, String).self)
            members[room, default: []].append(user)
        }
        return try connections.query("""
            SELECT room, title, direct_key IS NOT NULL, created_by FROM switchboard_conversations ORDER BY created, room
            """).map { row in
            let (room, title, direct, createdBy) = try row.decode((String, String, Bool, String).self)
            return Conversation(room: room, title: title, direct: direct, createdBy: createdBy, members: members[room] ?? [])
        }
    }

    public func summaries(for user: String, after cursor: ConversationCursor?, limit: Int) throws -> ConversationPage {
        // One more than asked: whether a page follows. Rooms compared byte by byte (COLLATE "C"), as SQLite does.
        let rows = try connections.query("""
            SELECT \(unescaped: Self.summaryColumns)
            FROM switchboard_members m JOIN switchboard_conversations c ON c.room = m.room
            WHERE m.user_key = \(user.lowercased())
              AND (\(cursor?.last)::bigint IS NULL OR coalesce(m.last_id, 0) < \(cursor?.last)
                   OR (coalesce(m.last_id, 0) = \(cursor?.last) AND m.room COLLATE "C" < \(cursor?.room)))
            ORDER BY coalesce(m.last_id, 0) DESC, m.room COLLATE "C" DESC LIMIT \(limit + 1)
            """)
        let decoded = try rows.map { try $0.decode(SummaryRow.self) }
        let page = Array(decoded.prefix(limit))
        let next = decoded.count > limit ? page.last.map { ConversationCursor(last: $0.7, room: $0.0) } : nil
        return ConversationPage(summaries: try summaries(page), next: next)
    }

    public func summary(for user: String, in room: String) throws -> ConversationSummary? {
        let rows = try connections.query("""
            SELECT \(unescaped: Self.summaryColumns)
            FROM switchboard_members m JOIN switchboard_conversations c ON c.room = m.room
            WHERE m.user_key = \(user.lowercased()) AND m.room = \(room)
            """)
        return try summaries(rows.map { try $0.decode(SummaryRow.self) }).first
    }

    /// A member's row of the list: room, title, direct, creator, muted, read marker, unread, last id (0: none), members.
    private typealias SummaryRow = (String, String, Bool, String, Bool, Int64, Int64, Int64, [String]?)
    private static let summaryColumns = """
        c.room, c.title, c.direct_key IS NOT NULL, c.created_by, m.muted, m.read_id, m.unread, coalesce(m.last_id, 0),
        (SELECT array_agg(o.username ORDER BY o.since_id, o.ordinal) FROM switchboard_members o WHERE o.room = c.room)
        """

    /// The summaries of `rows`, in their order, with their last messages read in one round trip.
    private func summaries(_ rows: [SummaryRow]) throws -> [ConversationSummary] {
        let ids = rows.map(\.7).filter { $0 > 0 }
        let lasts = ids.isEmpty ? [:] : Dictionary(try connections.query("""
            SELECT \(unescaped: Self.columns) FROM switchboard_messages WHERE id = ANY(\(ids))
            """).map(Self.message).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return rows.map { room, title, direct, createdBy, muted, read, unread, lastID, members in
            ConversationSummary(
                conversation: Conversation(room: room, title: title, direct: direct, createdBy: createdBy, members: members ?? []),
                muted: muted, last: lasts[lastID], unread: Int(unread), read: read)
        }
    }

    public func unread(for user: String) throws -> Int {
        let key = user.lowercased()
        return Int(try connections.query("""
            SELECT coalesce(sum(unread), 0)::bigint FROM switchboard_members WHERE user_key = \(key) AND NOT muted
            """).first?.decode(Int64.self) ?? 0)
    }

    public func readMarkers(in room: String) throws -> [String: Int64] {
        var markers: [String: Int64] = [:]
        for row in try connections.query("SELECT username, read_id FROM switchboard_members WHERE room = \(room)") {
            let (user, read) = try row.decode((String, Int64).self)
            markers[user] = read
        }
        return markers
    }

    public func markRead(room: String, user: String, id: Int64) throws -> Int64? {
        try connections.query("""
            SELECT switchboard_mark_read(\(room), \(user.lowercased()), \(id))
            """).first?.decode(Int64?.self)
    }

    public func setMuted(room: String, user: String, muted: Bool) throws -> Bool {
        try connections.query("""
            UPDATE switchboard_members SET muted = \(muted) WHERE room = \(room) AND user_key = \(user.lowercased()) RETURNING room
            """).first != nil
    }
}
