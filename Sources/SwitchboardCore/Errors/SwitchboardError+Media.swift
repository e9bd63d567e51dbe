/// The refusals of uploads and attachments (SPEC: "Attachments").
extension SwitchboardError {
    /// 415: the content is no accepted type, or not the declared one.
    public static func unsupportedMedia(_ detail: String) -> SwitchboardError {
        SwitchboardError(.unsupported, code: "unsupported_media_type", message: detail)
    }
    /// 413: the upload is over `--max-upload-mib`.
    public static func uploadTooLarge(maxBytes: Int64) -> SwitchboardError {
        SwitchboardError(.tooLarge, code: "too_large", message: "An upload may be at most \(ByteSize.describe(maxBytes)).")
    }
    /// 413: the user's files together would be over `--upload-quota-mib`.
    public static func quotaExceeded(quotaBytes: Int64, usedBytes: Int64) -> SwitchboardError {
        SwitchboardError(.tooLarge, code: "quota_exceeded",
                         message: "Your uploads may take at most \(ByteSize.describe(quotaBytes)) together; \(ByteSize.describe(usedBytes)) are in use.")
    }
    /// 429: the uploader has `most` uploads waiting for the photo queue.
    public static func uploadsWaiting(_ most: Int) -> SwitchboardError {
        SwitchboardError(.rateLimited, code: "rate_limited",
                         message: "\(most) uploads of yours are waiting to be processed; try again when one is done.", retryAfterSeconds: 1)
    }
    /// 404: no upload with that id that this reader may see (never 403: an
    /// id's existence is not told to someone who may not read it).
    public static let noSuchMedia = SwitchboardError(.notFound, code: "no_such_media", message: "No such upload.")
    /// 403: an upload attached by someone who did not upload it.
    public static let notYourMedia = SwitchboardError(.forbidden, code: "not_your_media", message: "Only its uploader may attach an upload.")
    /// 422: more attachments than a message may carry.
    public static func tooManyAttachments(_ most: Int) -> SwitchboardError {
        SwitchboardError(.invalid, code: "too_many_media", message: "A message may carry at most \(most) attachments.")
    }
    /// 503: a store that keeps no uploads (none of Switchboard's own).
    public static let mediaUnavailable = SwitchboardError(.unavailable, code: "media_unavailable", message: "This server keeps no uploads.")
    /// 400: the upload's body could not be read as a file.
    public static func badUpload(_ detail: String) -> SwitchboardError {
        SwitchboardError(.malformed, code: "bad_upload", message: detail)
    }
}
