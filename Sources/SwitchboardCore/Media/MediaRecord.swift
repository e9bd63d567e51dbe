/// An upload as the store keeps it: what a message would carry, plus who
/// uploaded it, when, and whether any message ever carried it (for the
/// sweep: see ``MediaStore/sweepableMedia(uploadedBefore:)``).
public struct MediaRecord: Sendable, Equatable {
    /// What a message carries.
    public var attachment: MediaAttachment
    /// The uploader (as signed in; `admin` for the admin token).
    public var owner: String
    /// Milliseconds since the epoch.
    public var uploadedAt: Int64
    /// The thumbnail's MIME type (`image/jpeg` or `image/png`), if there is one.
    public var thumbnailType: String?

    public init(attachment: MediaAttachment, owner: String, uploadedAt: Int64, thumbnailType: String?) {
        self.attachment = attachment
        self.owner = owner
        self.uploadedAt = uploadedAt
        self.thumbnailType = thumbnailType
    }

    public var id: String { attachment.id }
    /// Bytes counted against the owner's quota (the file; thumbnails are the server's).
    public var size: Int64 { attachment.size }
}
