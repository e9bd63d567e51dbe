/// An upload as a message carries it (`"media":[...]`): what a reader
/// needs to show it and where to fetch it. Stored with the message, so a
/// message reads the same whatever later happens to the upload.
public struct MediaAttachment: Sendable, Equatable, Codable {
    /// The upload's id (``MediaID``).
    public var id: String
    /// Its MIME type, as sniffed (``MediaType``).
    public var type: String
    /// Its size in bytes.
    public var size: Int64
    /// The file name it was uploaded with (cleaned: see ``MediaName``).
    public var name: String
    /// Pixels, for photos (and video when known).
    public var width: Int?
    public var height: Int?
    /// Where to fetch it: `/api/media/ID`.
    public var url: String
    /// Where to fetch its thumbnail (photos only): `/api/media/ID/thumbnail`.
    public var thumbnail: String?

    public init(id: String, type: String, size: Int64, name: String, width: Int? = nil, height: Int? = nil,
                hasThumbnail: Bool) {
        self.id = id
        self.type = type
        self.size = size
        self.name = name
        self.width = width
        self.height = height
        self.url = "/api/media/\(id)"
        self.thumbnail = hasThumbnail ? "/api/media/\(id)/thumbnail" : nil
    }

    /// How it is shown (from its type; `voice` for a type no longer known).
    public var kind: MediaKind { MediaType(rawValue: type)?.kind ?? .voice }
}
