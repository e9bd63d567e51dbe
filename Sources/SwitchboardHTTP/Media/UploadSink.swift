import MicroHTTPD
import SwitchboardCore

/// An upload's body on its way to a temporary file, piece by piece on the
/// worker that reads it (never held in memory beyond its first bytes, which
/// decide its type): refused past `--max-upload-mib`, thrown away if the
/// client leaves or the upload is refused.
final class UploadSink: HTTPBodySink {
    private let file: TemporaryMediaFile
    private let media: MediaService
    /// The first bytes, for ``MediaSniffer``.
    private(set) var head: [UInt8] = []
    /// Bytes written.
    private(set) var size: Int64 = 0
    /// Whether the file came as a form's part, with the part's file name and type (each if given).
    private(set) var isFormPart = false
    private(set) var fileName: String?
    private(set) var contentType: String?
    /// Why it refused, as the client is told.
    private(set) var error: SwitchboardError?

    init(media: MediaService) throws(SwitchboardError) {
        self.media = media
        file = try media.temporaryFile()
        head.reserveCapacity(MediaSniffer.headLength)
    }

    var path: String { file.path }
    var refusal: String? { error?.message }

    func begin(fileName: String?, contentType: String?) -> Bool {
        isFormPart = true
        self.fileName = fileName
        self.contentType = contentType
        return true
    }

    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard error == nil else { return false }
        size += Int64(bytes.count)
        guard size <= media.limits.maxUploadBytes else {
            error = .uploadTooLarge(maxBytes: media.limits.maxUploadBytes)
            return false
        }
        if head.count < MediaSniffer.headLength {
            head.append(contentsOf: bytes.prefix(MediaSniffer.headLength - head.count))
        }
        do {
            try file.write(bytes)
        } catch {
            self.error = media.uploadNotWritten(error)
            return false
        }
        return true
    }

    /// The body is whole: the file is written out and closed, to be kept or
    /// discarded by ``MediaService``; if the disk refuses, it is discarded here.
    func finish() throws(SwitchboardError) {
        do {
            try file.finish()
        } catch {
            abandon()
            throw media.uploadNotWritten(error)
        }
    }

    func abandon() {
        file.close()
        media.discard(file.path)
    }
}
