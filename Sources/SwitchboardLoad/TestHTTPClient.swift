import Foundation
import SwitchboardCore

#if canImport(Glibc)
import Glibc
#endif

/// One-shot requests.
public struct TestHTTPClient {
    public let port: UInt16

    public init(port: UInt16) {
        self.port = port
    }

    public func request(_ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil) throws -> TestResponse {
        let connection = try TestHTTPConnection(port: port)
        defer { connection.close() }
        try connection.sendRequest(method, path, headers: headers + [("Connection", "close")], body: body)
        return try connection.readResponse(method: method)
    }

    public func get(_ path: String, headers: [(String, String)] = []) throws -> TestResponse {
        try request("GET", path, headers: headers)
    }

    /// `curl -d user=.. -d text=..`
    public func postForm(_ room: String, user: String, text: String) throws -> TestResponse {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        let body = "user=\(user.addingPercentEncoding(withAllowedCharacters: allowed)!)&text=\(text.addingPercentEncoding(withAllowedCharacters: allowed)!)"
        return try request("POST", "/api/rooms/\(room)/messages",
                           headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Array(body.utf8))
    }

    public func postJSON(_ room: String, _ json: String) throws -> TestResponse {
        try request("POST", "/api/rooms/\(room)/messages", headers: [("Content-Type", "application/json")], body: Array(json.utf8))
    }

    /// Publishes and returns the stored message, failing unless 201.
    @discardableResult
    public func publish(_ room: String = "lobby", user: String = "luke", text: String) throws -> Message {
        let response = try postForm(room, user: user, text: text)
        guard response.status == 201 else {
            throw TestClientError(description: "publish answered \(response.status): \(response.text)")
        }
        return try response.message()
    }

    /// Opens an SSE stream and reads its head; fails unless 200.
    public func openStream(_ path: String, headers: [(String, String)] = []) throws -> TestHTTPConnection {
        let connection = try TestHTTPConnection(port: port)
        try connection.sendRequest("GET", path, headers: headers + [("Accept", "text/event-stream")])
        let (status, responseHeaders) = try connection.readHead()
        guard status == 200, responseHeaders["content-type"]?.hasPrefix("text/event-stream") == true else {
            throw TestClientError(description: "stream answered \(status)")
        }
        return connection
    }
}
