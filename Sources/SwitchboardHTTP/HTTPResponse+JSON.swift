import MicroHTTPD
import SwitchboardCore

extension HTTPResponse {
    public static let jsonContentType = "application/json; charset=utf-8"

    /// A JSON response from already-encoded bytes.
    public static func json(_ status: Int, _ body: [UInt8], headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: status,
                     headers: [("Content-Type", jsonContentType), ("Cache-Control", "no-store")] + headers,
                     body: .bytes(body))
    }

    /// A JSON error response: `{"error":{"code":..,"message":..}}`.
    public static func error(_ error: SwitchboardError) -> HTTPResponse {
        .json(error.httpStatus, HTTPJSON.error(error))
    }
}
