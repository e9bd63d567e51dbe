import MicroHTTPD
import SwitchboardCore

extension HTTPResponse {
    public static let jsonContentType = "application/json; charset=utf-8"

    /// The headers of every JSON answer: its type, and never cached.
    public static let jsonHeaders: [(name: String, value: String)] = [("Content-Type", jsonContentType), ("Cache-Control", "no-store")]

    /// A JSON response from already-encoded bytes.
    public static func json(_ status: Int, _ body: [UInt8], headers: [(name: String, value: String)] = []) -> HTTPResponse {
        // No concatenation when there is nothing to add (most answers).
        HTTPResponse(status: status, headers: headers.isEmpty ? jsonHeaders : jsonHeaders + headers, body: .bytes(body))
    }

    /// A JSON error response: `{"error":{"code":..,"message":..}}`.
    /// A 401 says how to authenticate (`WWW-Authenticate: Bearer`), a 429
    /// when to retry (`Retry-After`).
    public static func error(_ error: SwitchboardError) -> HTTPResponse {
        var headers: [(name: String, value: String)] = []
        if error.kind == .unauthenticated {
            headers.append(("WWW-Authenticate", error.code == "unauthorized" ? "Bearer" : "Bearer error=\"invalid_token\""))
        }
        if let seconds = error.retryAfterSeconds { headers.append(("Retry-After", String(seconds))) }
        return .json(error.httpStatus, HTTPJSON.error(error), headers: headers)
    }

    /// The same envelope with a status of the caller's (a protocol's own:
    /// 405, 426) and headers that go with it.
    public static func error(_ error: SwitchboardError, status: Int, headers: [(name: String, value: String)]) -> HTTPResponse {
        .json(status, HTTPJSON.error(error), headers: headers)
    }
}
