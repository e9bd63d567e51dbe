import SwitchboardCore

/// The HTTP side's own refusals, and the status each kind of refusal gets.
extension SwitchboardError {
    /// The HTTP status that fits.
    public var httpStatus: Int {
        switch kind {
        case .malformed: return 400
        case .invalid: return 422
        case .unauthenticated: return 401
        case .forbidden: return 403
        case .conflict: return 409
        case .rateLimited: return 429
        case .notFound: return 404
        case .tooLarge: return 413
        case .unsupported: return 415
        case .unavailable: return 503
        case .misdirected: return 421
        }
    }

    static func malformedForm(_ detail: String) -> SwitchboardError {
        SwitchboardError(.malformed, code: "malformed_form", message: "The form body could not be read: \(detail).")
    }
    static func bodyTooLarge(limit: Int) -> SwitchboardError {
        SwitchboardError(.tooLarge, code: "body_too_large", message: "The request body is larger than \(limit) bytes.")
    }
    static let unsupportedMediaType = SwitchboardError(
        .unsupported, code: "unsupported_media_type", message: "Send application/json or application/x-www-form-urlencoded.")
    static let notFound = SwitchboardError(.notFound, code: "not_found", message: "No such endpoint.")
    static let misdirected = SwitchboardError(
        .misdirected, code: "misdirected_request", message: "This server does not answer for that Host (see --public-url).")
    static let tooManyParameters = SwitchboardError(
        .malformed, code: "too_many_parameters", message: "A request has at most 64 query parameters.")
    static let targetNotUTF8 = SwitchboardError(
        .malformed, code: "invalid_utf8", message: "The path and the query must be UTF-8 once percent-decoded, and the path has no NUL (%00).")
    static let ambiguousFraming = SwitchboardError(
        .malformed, code: "ambiguous_framing",
        message: "Where the body ends is unclear: two Content-Lengths, one beside Transfer-Encoding, Transfer-Encoding other than chunked alone, a space before a header's colon, or a CR alone in a header.")
    static let invalidHost = SwitchboardError(
        .malformed, code: "invalid_host", message: "An HTTP/1.1 request has one Host header: host[:port].")
    static let invalidPath = SwitchboardError(
        .malformed, code: "invalid_path", message: "A path has no empty, '.' or '..' segments ('//', '/./', '/../').")
    static let adminOnly = unauthorized("The admin API needs 'Authorization: Bearer TOKEN'.")
    static func methodNotAllowed(allowed: [String]) -> SwitchboardError {
        SwitchboardError(.malformed, code: "method_not_allowed", message: "Use \(allowed.joined(separator: " or ")) here.")
    }
}
