/// A client-facing error: an HTTP status, a stable machine-readable code and a
/// human sentence. Rendered as `{"error":{"code":..,"message":..}}`.
public struct SwitchboardError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status that fits.
    public var status: Int
    /// Stable identifier, e.g. `too_long`.
    public var code: String
    /// What went wrong, for a person.
    public var message: String

    public init(status: Int, code: String, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }

    public static func badParameter(_ name: String, _ detail: String) -> SwitchboardError {
        SwitchboardError(status: 400, code: "bad_parameter", message: "Parameter '\(name)' \(detail).")
    }
    public static let invalidUTF8 = SwitchboardError(status: 400, code: "invalid_utf8", message: "The request body is not valid UTF-8.")
    public static func malformedJSON(_ detail: String) -> SwitchboardError {
        SwitchboardError(status: 400, code: "malformed_json", message: "The JSON body could not be read: \(detail).")
    }
    public static func malformedForm(_ detail: String) -> SwitchboardError {
        SwitchboardError(status: 400, code: "malformed_form", message: "The form body could not be read: \(detail).")
    }
    public static func bodyTooLarge(limit: Int) -> SwitchboardError {
        SwitchboardError(status: 413, code: "body_too_large", message: "The request body is larger than \(limit) bytes.")
    }
    public static let unsupportedMediaType = SwitchboardError(
        status: 415, code: "unsupported_media_type",
        message: "Send application/json or application/x-www-form-urlencoded.")
    public static let notFound = SwitchboardError(status: 404, code: "not_found", message: "No such endpoint.")
    public static func methodNotAllowed(allowed: [String]) -> SwitchboardError {
        SwitchboardError(status: 405, code: "method_not_allowed",
                         message: "Use \(allowed.joined(separator: " or ")) here.")
    }
    public static let shuttingDown = SwitchboardError(status: 503, code: "shutting_down", message: "The server is shutting down.")
    public static func storeFailure(_ detail: String) -> SwitchboardError {
        SwitchboardError(status: 503, code: "store_unavailable", message: "The message could not be stored: \(detail).")
    }
}
