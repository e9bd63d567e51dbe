import MicroHTTPD
import SwitchboardCore

/// Replies, edits, unsends and reactions over HTTP: each read from the
/// request and handed to Core's ``MessageActService`` (the same rules as
/// WebSocket's), the connection suspended until the store has it.
enum ActEndpoints {
    /// `PATCH /api/rooms/{room}/messages/{id}` `{"text":..}` → 200 with the
    /// `edit` act as stored.
    static func edit(_ request: RouteRequest) throws -> HTTPHandlerResult {
        let (room, id) = (request.room, try messageID(request))
        let fields = try PublishRequest.fields(contentType: request.exchange.header("Content-Type"), body: request.exchange.body)
        guard let text = fields.text else { throw SwitchboardError(.invalid, code: "empty_text", message: "Field 'text' is required.") }
        let (acts, identity, client) = (request.services.acts, request.identity, request.exchange.clientAddress ?? "unknown")
        return PendingAnswer.wait(request.exchange, until: { done in
            acts.edit(room: room, id: id, text: text, user: fields.user, by: identity, client: client, completion: done)
        }, answer: { .json(200, try $0.get().json) })
    }

    /// `DELETE /api/rooms/{room}/messages/{id}` → 204 once unsent.
    static func unsend(_ request: RouteRequest) throws -> HTTPHandlerResult {
        let (room, id) = (request.room, try messageID(request))
        let (acts, identity, client) = (request.services.acts, request.identity, request.exchange.clientAddress ?? "unknown")
        let user = request.exchange.query("user")
        return PendingAnswer.wait(request.exchange, until: { done in
            acts.unsend(room: room, id: id, user: user, by: identity, client: client, completion: done)
        }, answer: { _ = try $0.get(); return HTTPResponse(status: 204) })
    }

    /// `PUT` (`on`) or `DELETE` `/api/rooms/{room}/messages/{id}/reactions/{emoji}`
    /// → 200 with the `reaction` act as stored, or 204 when it already stood so.
    static func react(_ request: RouteRequest, on: Bool) throws -> HTTPHandlerResult {
        let (room, id, emoji) = (request.room, try messageID(request), request.parameter("emoji"))
        let (acts, identity, client) = (request.services.acts, request.identity, request.exchange.clientAddress ?? "unknown")
        let user = request.exchange.query("user")
        return PendingAnswer.wait(request.exchange, until: { done in
            acts.react(room: room, id: id, emoji: emoji, on: on, user: user, by: identity, client: client, completion: done)
        }, answer: { try $0.get().map { .json(200, $0.json) } ?? HTTPResponse(status: 204) })
    }

    /// `GET /api/rooms/{room}/messages/{id}/replies?since=N&limit=L` →
    /// `{"messages":[...],"next":N}`, oldest first.
    static func replies(_ request: RouteRequest) throws -> HTTPHandlerResult {
        let (room, id) = (request.room, try messageID(request))
        let since = try request.exchange.query("since").map { try Cursor.parse($0, name: "since") } ?? 0
        let limit = Int(try request.exchange.query("limit").map { try Cursor.integer($0, name: "limit", range: 1...1000) } ?? 100)
        let (acts, identity) = (request.services.acts, request.identity)
        return PendingAnswer.wait(request.exchange, until: { done in
            acts.replies(room: room, id: id, after: since, limit: limit, by: identity, completion: done)
        }, answer: { result in
            let replies = try result.get()
            return .json(200, HTTPJSON.page(replies, next: replies.last?.id ?? since))
        })
    }

    private static func messageID(_ request: RouteRequest) throws(SwitchboardError) -> Int64 {
        try Cursor.integer(request.parameter("id"), name: "id", range: 1...Int64.max)
    }
}
