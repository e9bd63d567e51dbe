import Foundation

/// Publishes over one keep-alive HTTP connection, returning the id of each
/// stored message: a ``TestHTTPConnection`` used by one thread at a time.
public final class BlockingPublisher: @unchecked Sendable {
    private let connection: TestHTTPConnection
    private let headers: [(String, String)]
    private let signedIn: Bool

    /// - Parameter token: publish as this token's user (`user` is then ignored).
    public init(port: UInt16, token: String? = nil) throws {
        connection = try TestHTTPConnection(port: port)
        signedIn = token != nil
        headers = [("Content-Type", "application/x-www-form-urlencoded")] + (token.map { [("Authorization", "Bearer \($0)")] } ?? [])
    }

    /// POSTs one message (as a form) and returns its id.
    public func publish(room: String, user: String, text: String) throws -> Int64 {
        try connection.sendRequest("POST", "/api/rooms/\(room)/messages",
                                   headers: headers, body: Array(((signedIn ? "" : "user=\(user)&") + "text=\(text)").utf8))
        let response = try connection.readResponse(method: "POST")
        guard response.status == 201, let id = try response.json()["id"] as? Int else {
            throw TestClientError(description: "publish refused: \(response.status) \(response.text)")
        }
        return Int64(id)
    }
}
