import Foundation
import GRDB
import SwitchboardCore

/// Replies and acts in the commit's transaction: the message an act (or a
/// reply) names changes in the same commit that stores the act.
extension SQLiteMessageStore {
    /// Applies `draft` (an act, or a reply) to message `target`, as
    /// ``MessageActs`` says; false when it changes nothing (no such
    /// message, or one acts may not name, or a reaction that stood so):
    /// the act is then not stored. An unsend takes the message's text and
    /// attachments, and the text of its edits, out of the database.
    static func applyAct(_ draft: MessageDraft, to target: Int64, timestamp: Int64, in db: Database) throws -> Bool {
        // Compiled once per connection (compiling them on every reply was 80% of a reply's cost).
        guard let stored = try MessageRows.fetchOne(db.cachedStatement(sql: selectByID), arguments: [target]),
              let now = MessageActs.apply(draft.stored(id: 0, timestamp: timestamp), to: stored)
        else { return false }
        try db.cachedStatement(sql: "UPDATE message SET text = ?, media = ?, reply_to = ?, detail = ?, state = ? WHERE id = ?")
            .execute(arguments: [now.text, now.media.map { String(decoding: MessageJSON.encode($0), as: UTF8.self) },
                                 now.replyTo, StoredActFields.detail(of: now), StoredActFields.standing(of: now), target])
        if draft.kind == .delete {
            try db.cachedStatement(sql: "DELETE FROM message_media WHERE message_id = ?").execute(arguments: [target])
            try db.cachedStatement(sql: "UPDATE message SET text = '' WHERE target = ? AND kind = 'edit'").execute(arguments: [target])
        }
        return true
    }

    public func replies(to id: Int64, in room: String, after cursor: Int64, limit: Int) throws -> [Message] {
        try writer.readInCompiledTransaction { db in
            try MessageRows.fetchAll(db.cachedStatement(sql: """
                SELECT \(Self.columns) FROM message
                WHERE reply_to = ? AND room = ? AND id > ? AND kind = 'message' ORDER BY id LIMIT ?
                """), arguments: [id, room, cursor, limit])
        }
    }
}
