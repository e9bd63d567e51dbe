import SwitchboardCore

/// The JSON answers of the media endpoints.
enum MediaJSON {
    /// `POST /api/media`'s 201: `{"media":ID,"type","size","name","width","height","url","thumbnail"}`.
    static func uploaded(_ attachment: MediaAttachment) -> [UInt8] {
        struct Uploaded: Encodable {
            let media: String
            let type: String
            let size: Int64
            let name: String
            let width: Int?
            let height: Int?
            let url: String
            let thumbnail: String?
        }
        return MessageJSON.encode(Uploaded(media: attachment.id, type: attachment.type, size: attachment.size, name: attachment.name,
                                           width: attachment.width, height: attachment.height, url: attachment.url,
                                           thumbnail: attachment.thumbnail))
    }

    /// The admin's usage: `{"files","bytes","users":[{"user","files","bytes"}],
    /// "recent":[{"media","type","size","name","user","uploaded","carried"}]}`.
    static func usage(_ usage: [MediaUsage], recent: [(record: MediaRecord, carried: Bool)]) -> [UInt8] {
        struct Upload: Encodable {
            let media: String
            let type: String
            let size: Int64
            let name: String
            let user: String
            let uploaded: Int64
            let carried: Bool
        }
        struct Usage: Encodable {
            let files: Int
            let bytes: Int64
            let users: [MediaUsage]
            let recent: [Upload]
        }
        let uploads = recent.map { entry in
            Upload(media: entry.record.id, type: entry.record.attachment.type, size: entry.record.size, name: entry.record.attachment.name,
                   user: entry.record.owner, uploaded: entry.record.uploadedAt, carried: entry.carried)
        }
        return MessageJSON.encode(Usage(files: usage.reduce(0) { $0 + $1.files }, bytes: usage.reduce(0) { $0 + $1.bytes }, users: usage,
                                        recent: uploads))
    }
}
