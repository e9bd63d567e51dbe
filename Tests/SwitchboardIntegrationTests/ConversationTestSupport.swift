import Foundation
import SwitchboardTesting

/// Conversations as a client drives them over HTTP, for the conversation tests.
struct ConversationClient {
    let client: TestHTTPClient
    let token: String

    var bearer: [(String, String)] { [("Authorization", "Bearer \(token)")] }
    private var json: [(String, String)] { bearer + [("Content-Type", "application/json")] }

    func call(_ method: String, _ path: String, _ body: String? = nil) throws -> TestResponse {
        try client.request(method, path, headers: json, body: body.map { Array($0.utf8) })
    }

    /// `POST /api/conversations`; the answer.
    func create(_ members: [String], title: String? = nil) throws -> TestResponse {
        let list = members.map { "\"\($0)\"" }.joined(separator: ",")
        return try call("POST", "/api/conversations", title.map { #"{"title":"\#($0)","members":[\#(list)]}"# } ?? #"{"members":[\#(list)]}"#)
    }

    /// Creates a group and returns its room.
    func group(_ members: [String], title: String = "Trip") throws -> String {
        let created = try create(members, title: title)
        guard created.status == 201, let room = try created.json()["room"] as? String else {
            throw TestClientError(description: "create: \(created.status) \(created.text)")
        }
        return room
    }

    func publish(_ room: String, _ text: String) throws -> TestResponse {
        try call("POST", "/api/rooms/\(room)/messages", #"{"text":"\#(text)"}"#)
    }

    func list() throws -> [[String: Any]] {
        try call("GET", "/api/conversations").json()["conversations"] as? [[String: Any]] ?? []
    }
}
