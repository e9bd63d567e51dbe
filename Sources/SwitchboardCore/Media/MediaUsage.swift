/// One uploader's share of the media storage, for the admin and `/metrics`.
public struct MediaUsage: Sendable, Equatable, Codable {
    /// The uploader.
    public var user: String
    /// How many uploads.
    public var files: Int
    /// Their bytes together.
    public var bytes: Int64

    public init(user: String, files: Int, bytes: Int64) {
        self.user = user
        self.files = files
        self.bytes = bytes
    }
}
