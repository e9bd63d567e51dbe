/// A type Switchboard accepts for an upload, as decided by its content
/// (``MediaSniffer``), never by what the client declared.
public enum MediaType: String, Sendable, CaseIterable, Equatable {
    case jpeg = "image/jpeg"
    case png = "image/png"
    case gif = "image/gif"
    case webp = "image/webp"
    case ogg = "audio/ogg"
    case webmAudio = "audio/webm"
    case m4a = "audio/mp4"
    case mp3 = "audio/mpeg"
    case wav = "audio/wav"
    case mp4 = "video/mp4"
    case webm = "video/webm"
    case quicktime = "video/quicktime"

    /// The MIME type sent as `Content-Type` and stored.
    public var mimeType: String { rawValue }

    /// How it is shown.
    public var kind: MediaKind {
        switch self {
        case .jpeg, .png, .gif, .webp: return .photo
        case .ogg, .webmAudio, .m4a, .mp3, .wav: return .voice
        case .mp4, .webm, .quicktime: return .video
        }
    }

    /// A name's usual extension, for a file saved without one.
    public var fileExtension: String {
        switch self {
        case .jpeg: return "jpg"
        case .png: return "png"
        case .gif: return "gif"
        case .webp: return "webp"
        case .ogg: return "ogg"
        case .webmAudio, .webm: return "webm"
        case .m4a: return "m4a"
        case .mp3: return "mp3"
        case .wav: return "wav"
        case .mp4: return "mp4"
        case .quicktime: return "mov"
        }
    }

    /// Whether the stored file is re-encoded (metadata removed) and given a thumbnail.
    public var isImage: Bool { kind == .photo }
}
