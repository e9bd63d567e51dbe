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

    /// The admin's usage: `{"files","bytes","users":[{"user","files","bytes"}]}`.
    static func usage(_ usage: [MediaUsage]) -> [UInt8] {
        struct Usage: Encodable {
            let files: Int
            let bytes: Int64
            let users: [MediaUsage]
        }
        return MessageJSON.encode(Usage(files: usage.reduce(0) { $0 + $1.files }, bytes: usage.reduce(0) { $0 + $1.bytes }, users: usage))
    }
}
