import Foundation

/// Publishes to a peer (Nchan) over one keep-alive connection: the body is
/// the message JSON with an id the load client assigns (Nchan keeps the body
/// as it is and has no ids of ours), so subscribers can be checked the same
/// way as Switchboard's.
public final class PeerPublisher: @unchecked Sendable {
    private let connection: any RequestResponseConnection

    public convenience init(port: UInt16) throws {
        try self.init(connection: TestHTTPConnection(port: port))
    }

    /// Publishes over `connection` (plain or TLS).
    public init(connection: any RequestResponseConnection) {
        self.connection = connection
    }

    /// POSTs message `id` and returns that id once the peer accepted it (2xx).
    public func publish(room: String, id: Int64, user: String, text: String) throws -> Int64 {
        let body = #"{"id":\#(id),"room":"\#(room)","user":"\#(user)","text":"\#(text)","kind":"message","ts":0}"#
        let response = try connection.exchange("POST", "/api/rooms/\(room)/messages", headers: [("Content-Type", "application/json")],
                                               body: Array(body.utf8))
        guard (200..<300).contains(response.status) else {
            throw TestClientError(description: "publish refused: \(response.status) \(response.text)")
        }
        return id
    }
}
