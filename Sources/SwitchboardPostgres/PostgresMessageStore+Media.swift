import Foundation
import NIOCore
import PostgresNIO
import SwitchboardCore

/// Uploads in the shared database: their records, which messages carry them
/// (written by `switchboard_commit`), and their bytes in 1 MiB chunks, so
/// that any node serves a file another node took in.
extension PostgresMessageStore: MediaStore, MediaBlobStore {
    static let chunkBytes = 1 << 20

    public func insertMedia(_ record: MediaRecord) throws {
        try connections.query("""
            INSERT INTO switchboard_media (id, owner, owner_key, attachment, size, thumbnail_type, uploaded_at)
            VALUES (\(record.id), \(record.owner), \(record.owner.lowercased()),
                    \(String(decoding: MessageJSON.encode(record.attachment), as: UTF8.self)), \(record.size),
                    \(record.thumbnailType), \(record.uploadedAt))
            """)
    }

    public func mediaRecords(_ ids: [String]) throws -> [MediaRecord] {
        guard !ids.isEmpty else { return [] }
        return try connections.query("""
            SELECT owner, attachment, thumbnail_type, uploaded_at, carried FROM switchboard_media WHERE id = ANY(\(ids))
            """).compactMap { try Self.mediaRecord($0)?.record }
    }

    public func recentMedia(limit: Int) throws -> [(record: MediaRecord, carried: Bool)] {
        try connections.query("""
            SELECT owner, attachment, thumbnail_type, uploaded_at,
                   EXISTS (SELECT 1 FROM switchboard_message_media c WHERE c.media_id = m.id)
            FROM switchboard_media m ORDER BY uploaded_at DESC, id LIMIT \(limit)
            """).compactMap(Self.mediaRecord)
    }

    private static func mediaRecord(_ row: PostgresRow) throws -> (record: MediaRecord, carried: Bool)? {
        let (owner, json, thumbnailType, uploadedAt, carried) = try row.decode((String, String, String?, Int64, Bool).self)
        guard let attachment = try? JSONDecoder().decode(MediaAttachment.self, from: Data(json.utf8)) else { return nil }
        return (MediaRecord(attachment: attachment, owner: owner, uploadedAt: uploadedAt, thumbnailType: thumbnailType), carried)
    }

    public func firstCarrier(of id: String, after room: String) throws -> MediaCarrier? {
        try connections.query("""
            SELECT room, message_id FROM switchboard_message_media WHERE media_id = \(id) AND room > \(room)
            ORDER BY room, message_id LIMIT 1
            """).first.map { row in
            let (room, message) = try row.decode((String, Int64).self)
            return MediaCarrier(room: room, id: message)
        }
    }

    public func mediaBytes(of user: String) throws -> Int64 {
        try connections.query("""
            SELECT coalesce(sum(size), 0)::bigint FROM switchboard_media WHERE owner_key = \(user.lowercased())
            """).first?.decode(Int64.self) ?? 0
    }

    public func mediaUsage() throws -> [MediaUsage] {
        try connections.query("""
            SELECT min(owner), count(*)::bigint, sum(size)::bigint FROM switchboard_media
            GROUP BY owner_key ORDER BY 3 DESC, 1
            """).map { row in
            let (user, files, bytes) = try row.decode((String, Int64, Int64).self)
            return MediaUsage(user: user, files: Int(files), bytes: bytes)
        }
    }

    public func deleteMedia(_ id: String) throws -> Bool {
        try connections.query("DELETE FROM switchboard_media WHERE id = \(id) RETURNING id").first != nil
    }

    public func sweepableMedia(uploadedBefore: Int64) throws -> [String] {
        try connections.query("""
            SELECT id FROM switchboard_media m
            WHERE (carried OR uploaded_at < \(uploadedBefore))
              AND NOT EXISTS (SELECT 1 FROM switchboard_message_media c WHERE c.media_id = m.id)
            """).map { try $0.decode(String.self) }
    }

    // MARK: The bytes

    public func putBlob(from path: String, as id: String, _ variant: MediaVariant) throws {
        guard let file = FileHandle(forReadingAtPath: path) else { throw PostgresStoreError.unexpectedAnswer("cannot read \(path)") }
        defer { try? file.close() }
        try connections.withConnection { connection in
            try connections.query("BEGIN", on: connection)
            do {
                try connections.query("DELETE FROM switchboard_media_chunks WHERE media_id = \(id) AND variant = \(variant.rawValue)",
                                      on: connection)
                var seq = 0
                while let data = try file.read(upToCount: Self.chunkBytes), !data.isEmpty {
                    let chunk = ByteBuffer(bytes: data)
                    try connections.query("""
                        INSERT INTO switchboard_media_chunks (media_id, variant, seq, data)
                        VALUES (\(id), \(variant.rawValue), \(seq), \(chunk))
                        """, on: connection)
                    seq += 1
                }
                try connections.query("COMMIT", on: connection)
            } catch {
                _ = try? connections.query("ROLLBACK", on: connection)
                throw error
            }
        }
    }

    public func getBlob(_ id: String, _ variant: MediaVariant, into write: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        let count = try connections.query("""
            SELECT count(*)::bigint FROM switchboard_media_chunks WHERE media_id = \(id) AND variant = \(variant.rawValue)
            """).first?.decode(Int64.self) ?? 0
        guard count > 0 else { return false }
        // One chunk per query: at most 1 MiB of the file in memory at once.
        for seq in 0..<Int(count) {
            guard let row = try connections.query("""
                SELECT data FROM switchboard_media_chunks WHERE media_id = \(id) AND variant = \(variant.rawValue) AND seq = \(seq)
                """).first else { throw PostgresStoreError.unexpectedAnswer("chunk \(seq) of \(id) is missing") }
            let chunk = try row.decode(ByteBuffer.self)
            try chunk.withUnsafeReadableBytes(write)
        }
        return true
    }

    public func blobIDs(storedBefore: Int64) throws -> [String] {
        try connections.query("""
            SELECT DISTINCT media_id FROM switchboard_media_chunks WHERE stored_at < \(storedBefore)
            """).map { try $0.decode(String.self) }
    }

    public func deleteBlobs(_ id: String) throws {
        try connections.query("DELETE FROM switchboard_media_chunks WHERE media_id = \(id)")
    }
}
