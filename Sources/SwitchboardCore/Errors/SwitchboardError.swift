/// A client-facing error: what kind of refusal it is, a stable
/// machine-readable code and a sentence for a person. Each transport renders
/// it its own way (an HTTP status and `{"error":{...}}`, a WebSocket error
/// object, a TCP `error:` line); the domain knows nothing of those.
public struct SwitchboardError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of refusal: each transport maps it (HTTP to a status).
    public enum Kind: Sendable, Equatable {
        /// The input cannot be read (bad JSON, a bad parameter).
        case malformed
        /// The input was read but is not allowed (a name or text out of bounds).
        case invalid
        /// Who the client is is not known (no token where one is needed, or
        /// one that cannot be accepted), or its credentials are wrong.
        case unauthenticated
        /// The client may not do this.
        case forbidden
        /// The thing exists already (a name taken).
        case conflict
        /// Too many requests: wait and try again.
        case rateLimited
        /// No such thing.
        case notFound
        /// The input is larger than allowed.
        case tooLarge
        /// The input comes in a form that is not spoken.
        case unsupported
        /// The server cannot do it now (shutting down, the store failing).
        case unavailable
        /// The request names a host that is not this server's.
        case misdirected
    }

    /// What kind of refusal it is.
    public var kind: Kind
    /// Stable identifier, e.g. `too_long`.
    public var code: String
    /// What went wrong, for a person.
    public var message: String
    /// For ``Kind/rateLimited``: whole seconds until a retry can succeed.
    public var retryAfterSeconds: Int?

    public init(_ kind: Kind, code: String, message: String, retryAfterSeconds: Int? = nil) {
        self.kind = kind
        self.code = code
        self.message = message
        self.retryAfterSeconds = retryAfterSeconds
    }

    public var description: String { "\(code): \(message)" }

    public static func badParameter(_ name: String, _ detail: String) -> SwitchboardError {
        SwitchboardError(.malformed, code: "bad_parameter", message: "Parameter '\(name)' \(detail).")
    }
    public static let invalidUTF8 = SwitchboardError(.malformed, code: "invalid_utf8", message: "The request body is not valid UTF-8.")
    public static func malformedJSON(_ detail: String) -> SwitchboardError {
        SwitchboardError(.malformed, code: "malformed_json", message: "The JSON body could not be read: \(detail).")
    }
    public static let shuttingDown = SwitchboardError(.unavailable, code: "shutting_down", message: "The server is shutting down.")
    /// A message write the store refused: 503.
    public static func storeFailure(_ detail: String) -> SwitchboardError {
        SwitchboardError(.unavailable, code: "store_unavailable", message: "The message could not be stored: \(detail).")
    }
    /// Any other failure of the store (a read, an account, a failure
    /// nobody expected), without claiming a message was being stored: 503.
    public static func storeUnavailable(_ detail: String) -> SwitchboardError {
        SwitchboardError(.unavailable, code: "store_unavailable", message: "The store could not answer: \(detail).")
    }
}

extension SwitchboardError {
    /// The store did not answer within `--store-timeout`: 503. A write may
    /// yet be stored (it was under way), or not (it had not started).
    public static func storeTimedOut(seconds: Double) -> SwitchboardError {
        SwitchboardError(.unavailable, code: "store_unavailable",
                         message: "The store did not answer within \(seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)) s; try again.")
    }
}
