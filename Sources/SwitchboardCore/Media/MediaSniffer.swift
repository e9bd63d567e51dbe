/// Decides an upload's type from its first bytes (magic numbers and
/// container headers), as browsers' MIME sniffing does for the same formats:
/// the client's declared type only chooses between readings of the same
/// container (a WebM or MP4 holding only sound is `voice` when declared
/// `audio/...`) and is refused when the content contradicts it. Anything
/// not listed in ``MediaType`` (HTML, SVG, scripts, executables) is refused.
public enum MediaSniffer {
    /// How many leading bytes ``sniff(_:declared:)`` wants (fewer are fine for a small file).
    public static let headLength = 4096

    /// The type of content starting with `head`.
    /// - Parameter declared: the client's `Content-Type` (of the file part for a form), if any.
    /// - Throws: 415 `unsupported_media_type` when the content is no listed type, or not the declared one.
    public static func sniff(_ head: [UInt8], declared: String?) throws(SwitchboardError) -> MediaType {
        guard let container = container(of: head) else {
            throw .unsupportedMedia("The file is not a photo, video or sound Switchboard accepts (JPEG, PNG, GIF, WebP, Ogg, WebM, MP4, M4A, MP3, WAV, QuickTime).")
        }
        // No word at all: none, bytes, or the form type curl and browsers send for a body given no type.
        let declaredType = declared.map(ContentType.essence(of:)).flatMap { Self.undeclared.contains($0) ? nil : $0 }
        guard let declaredType else { return container }
        let soundOnly = declaredType.hasPrefix("audio/")
        let type: MediaType
        switch container {
        case .webm: type = soundOnly ? .webmAudio : .webm
        case .mp4: type = soundOnly ? .m4a : .mp4
        case .m4a: type = soundOnly ? .m4a : .mp4
        default: type = container
        }
        guard Self.aliases(of: type).contains(declaredType) else {
            throw .unsupportedMedia("The file's content is \(type.mimeType), not the declared \(declaredType).")
        }
        return type
    }

    /// Declared types that say nothing about the file.
    private static let undeclared: Set<String> = ["", "application/octet-stream", "application/x-www-form-urlencoded", "binary/octet-stream"]

    /// The container `head` starts with, read as a file with no declared type.
    static func container(of head: [UInt8]) -> MediaType? {
        func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + bytes.count && Array(head[offset..<offset + bytes.count]) == bytes
        }
        func ascii(_ text: String, at offset: Int = 0) -> Bool { starts(Array(text.utf8), at: offset) }

        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if ascii("GIF87a") || ascii("GIF89a") { return .gif }
        if ascii("RIFF"), ascii("WEBP", at: 8) { return .webp }
        if ascii("RIFF"), ascii("WAVE", at: 8) { return .wav }
        if ascii("OggS") { return .ogg }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) { return isWebM(head) ? .webm : nil }
        if ascii("ftyp", at: 4) {
            guard head.count >= 12 else { return nil }
            let brand = String(decoding: head[8..<12], as: UTF8.self)
            switch brand {
            case "qt  ": return .quicktime
            case "M4A ", "M4B ": return .m4a
            case "isom", "iso2", "iso4", "iso5", "iso6", "mp41", "mp42", "avc1", "dash", "MSNV", "3gp4", "3gp5", "3gp6", "M4V ", "mmp4", "f4v ":
                return .mp4
            default: return nil
            }
        }
        if ascii("ID3") { return .mp3 }
        // An MPEG audio frame header: 11 sync bits, a version and layer that exist, a bitrate that is not "bad".
        if head.count >= 4, head[0] == 0xFF, head[1] & 0xE0 == 0xE0, head[1] & 0x18 != 0x08, head[1] & 0x06 != 0,
           head[2] & 0xF0 != 0xF0 {
            return .mp3
        }
        return nil
    }

    /// An EBML header whose DocType is `webm` (Matroska in general is not accepted).
    private static func isWebM(_ head: [UInt8]) -> Bool {
        // The DocType element (0x4282), a one-byte size (0x84), then "webm".
        let docType: [UInt8] = [0x42, 0x82, 0x84] + Array("webm".utf8)
        let scan = head.prefix(64)
        guard scan.count >= docType.count else { return false }
        for start in 0...(scan.count - docType.count) where Array(scan[start..<start + docType.count]) == docType { return true }
        return false
    }

    /// The MIME types a client may declare for `type`.
    private static func aliases(of type: MediaType) -> Set<String> {
        switch type {
        case .jpeg: return ["image/jpeg", "image/jpg", "image/pjpeg"]
        case .png: return ["image/png", "image/x-png"]
        case .gif: return ["image/gif"]
        case .webp: return ["image/webp"]
        case .ogg: return ["audio/ogg", "audio/opus", "application/ogg", "audio/x-ogg"]
        case .webmAudio: return ["audio/webm"]
        case .m4a: return ["audio/mp4", "audio/x-m4a", "audio/m4a", "audio/aac"]
        case .mp3: return ["audio/mpeg", "audio/mp3", "audio/x-mpeg"]
        case .wav: return ["audio/wav", "audio/x-wav", "audio/wave", "audio/vnd.wave"]
        case .mp4: return ["video/mp4", "video/x-m4v", "video/mpeg4"]
        case .webm: return ["video/webm"]
        case .quicktime: return ["video/quicktime", "video/mp4"]
        }
    }
}
