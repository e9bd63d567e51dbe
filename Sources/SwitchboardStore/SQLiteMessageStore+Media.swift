import Foundation
import GRDB
import SwitchboardCore

/// Uploads' records (their files: ``MediaDirectory``), and which stored
/// messages carry them (`message_media`, written with the message).
extension SQLiteMessageStore: MediaStore {
    /// Records that `message` carries `media` (in the message's transaction).
    static func recordCarriers(_ media: [MediaAttachment], of message: Message, in db: Database) throws {
        for attachment in media {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO message_media (media_id, message_id, room) VALUES (?, ?, ?)")
                .execute(arguments: [attachment.id, message.id, message.room])
            try db.cachedStatement(sql: "UPDATE media SET carried = 1 WHERE id = ?").execute(arguments: [attachment.id])
        }
    }

    /// What an upload, a message carrying media and a download ask is
    /// compiled once per connection (as the log's reads are).
    public func insertMedia(_ record: MediaRecord) throws {
        try writer.writeInCompiledTransaction { db in
            try db.cachedStatement(sql: """
                INSERT INTO media (id, owner, owner_key, attachment, size, thumbnail_type, uploaded_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [record.id, record.owner, record.owner.lowercased(),
                                 String(decoding: MessageJSON.encode(record.attachment), as: UTF8.self), record.size,
                                 record.thumbnailType, record.uploadedAt])
        }
    }

    public func mediaRecords(_ ids: [String]) throws -> [MediaRecord] {
        guard !ids.isEmpty else { return [] }
        return try writer.readInCompiledTransaction { db in
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT owner, attachment, thumbnail_type, uploaded_at FROM media WHERE id IN (SELECT value FROM json_each(?))
                """), arguments: [Self.jsonList(ids)]).compactMap(Self.mediaRecord)
        }
    }

    public func recentMedia(limit: Int) throws -> [(record: MediaRecord, carried: Bool)] {
        try writer.readInCompiledTransaction { db in
            try Row.fetchAll(db, sql: """
                SELECT owner, attachment, thumbnail_type, uploaded_at,
                       EXISTS (SELECT 1 FROM message_media WHERE media_id = media.id) AS carried
                FROM media ORDER BY uploaded_at DESC, id LIMIT ?
                """, arguments: [limit]).compactMap { row in Self.mediaRecord(row).map { ($0, row["carried"] as Bool) } }
        }
    }

    private static func mediaRecord(_ row: Row) -> MediaRecord? {
        let json: String = row["attachment"]
        guard let attachment = try? JSONDecoder().decode(MediaAttachment.self, from: Data(json.utf8)) else { return nil }
        return MediaRecord(attachment: attachment, owner: row["owner"], uploadedAt: row["uploaded_at"], thumbnailType: row["thumbnail_type"])
    }

    public func firstCarrier(of id: String, after room: String) throws -> MediaCarrier? {
        try writer.readInCompiledTransaction { db in
            try Row.fetchOne(db.cachedStatement(sql: """
                SELECT room, message_id FROM message_media WHERE media_id = ? AND room > ? ORDER BY room, message_id LIMIT 1
                """), arguments: [id, room]).map { MediaCarrier(room: $0["room"], id: $0["message_id"]) }
        }
    }

    public func mediaBytes(of user: String) throws -> Int64 {
        try writer.readInCompiledTransaction { db in
            try Int64.fetchOne(db.cachedStatement(sql: "SELECT COALESCE(SUM(size), 0) FROM media WHERE owner_key = ?"),
                               arguments: [user.lowercased()]) ?? 0
        }
    }

    public func mediaUsage() throws -> [MediaUsage] {
        try writer.readInCompiledTransaction { db in
            try Row.fetchAll(db, sql: """
                SELECT MIN(owner) AS owner, COUNT(*) AS files, SUM(size) AS bytes FROM media
                GROUP BY owner_key ORDER BY bytes DESC, owner
                """).map { MediaUsage(user: $0["owner"], files: $0["files"], bytes: $0["bytes"]) }
        }
    }

    public func deleteMedia(_ id: String) throws -> Bool {
        try writer.write { db in
            try db.execute(sql: "DELETE FROM media WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }

    public func sweepableMedia(uploadedBefore: Int64) throws -> [String] {
        try writer.readInCompiledTransaction { db in
            try String.fetchAll(db, sql: """
                SELECT id FROM media
                WHERE (carried = 1 OR uploaded_at < ?)
                  AND NOT EXISTS (SELECT 1 FROM message_media WHERE media_id = media.id)
                """, arguments: [uploadedBefore])
        }
    }
}
