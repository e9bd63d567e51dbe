/// What an attachment is to a person: how the chat page shows it and what
/// raw TCP calls it (`[photo URL]`).
public enum MediaKind: String, Sendable, Codable, Equatable {
    /// A still or animated image (JPEG, PNG, GIF, WebP).
    case photo
    /// A video (MP4, WebM, QuickTime).
    case video
    /// Sound: a voice message or any audio file.
    case voice
}
