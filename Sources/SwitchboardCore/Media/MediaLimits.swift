/// How large uploads may be (`--max-upload-mib`, `--upload-quota-mib`) and
/// how long an upload no message carries is kept.
public struct MediaLimits: Sendable, Equatable {
    /// One upload's most bytes (default 25 MiB).
    public var maxUploadBytes: Int64
    /// One user's uploads together (default 1 GiB).
    public var quotaBytes: Int64
    /// How long an upload may wait for a message to carry it (24 hours).
    public var unattachedLifetimeMilliseconds: Int64
    /// The most attachments one message carries.
    public var maxAttachments: Int
    /// A photo's most pixels (an animation's frames together), refused before it is decoded.
    public var maxImagePixels: Int64
    /// One uploader's uploads waiting for the media queue at once (as many
    /// as a message carries); more are refused (429) rather than queued.
    public var maxUploadsWaiting: Int
    /// A thumbnail's longer side.
    public var thumbnailSize: Int

    public init(maxUploadBytes: Int64 = 25 * 1_048_576, quotaBytes: Int64 = 1024 * 1_048_576,
                unattachedLifetimeMilliseconds: Int64 = 24 * 3_600_000, maxAttachments: Int = 10,
                maxImagePixels: Int64 = 100_000_000, maxUploadsWaiting: Int = 10, thumbnailSize: Int = 320) {
        self.maxUploadBytes = maxUploadBytes
        self.quotaBytes = quotaBytes
        self.unattachedLifetimeMilliseconds = unattachedLifetimeMilliseconds
        self.maxAttachments = maxAttachments
        self.maxImagePixels = maxImagePixels
        self.maxUploadsWaiting = maxUploadsWaiting
        self.thumbnailSize = thumbnailSize
    }
}
