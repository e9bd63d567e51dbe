import Foundation

/// Publishes over one keep-alive HTTP connection, returning the id of each
/// stored message: a connection used by one thread at a time.
public final class BlockingPublisher: @unchecked Sendable {
    private let connection: any RequestResponseConnection
    private let headers: [(String, String)]
    private let signedIn: Bool

    /// - Parameter token: publish as this token's user (`user` is then ignored).
    public convenience init(port: UInt16, token: String? = nil) throws {
        try self.init(connection: TestHTTPConnection(port: port), token: token)
    }

    /// Publishes over `connection` (plain or TLS).
    public init(connection: any RequestResponseConnection, token: String? = nil) {
        self.connection = connection
        signedIn = token != nil
        headers = [("Content-Type", "application/x-www-form-urlencoded")] + (token.map { [("Authorization", "Bearer \($0)")] } ?? [])
    }

    /// POSTs one message (as a form) and returns its id.
    public func publish(room: String, user: String, text: String) throws -> Int64 {
        let response = try connection.exchange("POST", "/api/rooms/\(room)/messages",
                                               headers: headers, body: Array(((signedIn ? "" : "user=\(user)&") + "text=\(text)").utf8))
        guard response.status == 201, let id = try response.json()["id"] as? Int else {
            throw TestClientError(description: "publish refused: \(response.status) \(response.text)")
        }
        return Int64(id)
    }
}
