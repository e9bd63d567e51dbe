import MicroHTTPD
import SwitchboardCore

/// Group and direct conversations (`/api/conversations`) over HTTP: each
/// reads its request, asks ``ConversationService`` (where every rule is),
/// and turns the outcome into JSON. The router has checked, before any of
/// these runs, that the caller is signed in and, for a room, a member.
enum ConversationEndpoints {
    /// `POST /api/conversations {"title","members"}` → 201, or 200 with the
    /// pair's existing direct conversation.
    static func create(_ request: RouteRequest) throws -> HTTPHandlerResult {
        let exchange = request.exchange
        let body = try ConversationRequest.decode(exchange.body, contentType: exchange.header("Content-Type"))
        return request.waiting(for: { done in
            try request.services.conversations.create(by: request.identity, title: body.title, members: body.members,
                                                      client: exchange.clientAddress ?? "unknown", completion: done)
        }, answer: { creation in
            switch creation {
            case .existing(let conversation):
                return .json(200, ConversationJSON(conversation).bytes)
            case .created(let event, let room):
                return .json(201, ConversationJSON(created: event, room: room).bytes, headers: [("Location", "/api/conversations/\(room)")])
            }
        })
    }

    /// `PATCH /api/conversations/{room} {"title"}` → 200.
    static func rename(_ request: RouteRequest) throws -> HTTPHandlerResult {
        let fields = try RequestFields.decode(["title"], contentType: request.exchange.header("Content-Type"), body: request.exchange.body)
        let title = try RequestFields.string(fields, "title")
        return request.waiting(for: { done in
            try request.services.conversations.rename(request.room, by: request.identity, title: title, completion: done)
        }, answer: { .json(200, ConversationJSON($0).bytes) })
    }

    /// `POST /api/conversations/{room}/members {"user"}` → 200.
    static func add(_ request: RouteRequest) throws -> HTTPHandlerResult {
        let fields = try RequestFields.decode(["user"], contentType: request.exchange.header("Content-Type"), body: request.exchange.body)
        let member = try RequestFields.string(fields, "user")
        return request.waiting(for: { done in
            try request.services.conversations.add(member, to: request.room, by: request.identity, completion: done)
        }, answer: { .json(200, ConversationJSON($0).bytes) })
    }

    /// `DELETE /api/conversations/{room}/members/{user}` (`me`: leave) → 204.
    static func remove(_ request: RouteRequest) throws -> HTTPHandlerResult {
        request.waiting(for: { done in
            try request.services.conversations.remove(request.parameter("user"), from: request.room, by: request.identity,
                                                      completion: done)
        }, answer: { HTTPResponse(status: 204, headers: [], body: .bytes([])) })
    }

    /// `PUT /api/conversations/{room}/members/me {"muted":true|false}` → 200 `{"room","muted"}`.
    static func setMembership(_ request: RouteRequest) throws -> HTTPHandlerResult {
        let fields = try RequestFields.decode(["muted"], contentType: request.exchange.header("Content-Type"), body: request.exchange.body)
        guard case .bool(let muted)? = fields["muted"] else {
            throw SwitchboardError(.invalid, code: "missing_field", message: "Field 'muted' (true or false) is required.")
        }
        let room = request.room
        return request.waiting(for: { done in
            try request.services.conversations.setMuted(room, muted: muted, by: request.identity, completion: done)
        }, answer: { muted in
            struct Muted: Encodable { var room: String; var muted: Bool }
            return .json(200, MessageJSON.encode(Muted(room: room, muted: muted)))
        })
    }

    /// `PUT /api/conversations/{room}/read {"id":N}` → 200 `{"room","read"}`;
    /// the other members' open streams hear the receipt.
    static func markRead(_ request: RouteRequest) throws -> HTTPHandlerResult {
        let fields = try RequestFields.decode(["id"], contentType: request.exchange.header("Content-Type"), body: request.exchange.body)
        let id: Int64
        switch fields["id"] {
        case .number(let text)?: id = try Cursor.integer(text, name: "id", range: 0...Int64.max)
        case .string(let text)?: id = try Cursor.integer(text, name: "id", range: 0...Int64.max)
        default: throw SwitchboardError(.invalid, code: "missing_field", message: "Field 'id' (a message id) is required.")
        }
        let room = request.room
        return request.waiting(for: { done in
            try request.services.conversations.markRead(room, id: id, by: request.identity, completion: done)
        }, answer: { marker in
            struct Read: Encodable { var room: String; var read: Int64 }
            return .json(200, MessageJSON.encode(Read(room: room, read: marker)))
        })
    }

    /// `POST /api/conversations/{room}/typing` → 204: the others' open streams
    /// hear it (at most once a second per user and room).
    static func typing(_ request: RouteRequest) throws -> HTTPHandlerResult {
        try request.services.conversations.typing(in: request.room, by: request.identity)
        return .respond(HTTPResponse(status: 204, headers: [], body: .bytes([])))
    }

    /// `GET /api/conversations[?limit=N][&before=CURSOR]` →
    /// `{"conversations":[..],"unread":N[,"prev":CURSOR]}`: a page, most
    /// recent activity first (`limit` 1...500, 100 by default); `prev` is
    /// the next page's `before`, absent on the last.
    static func list(_ request: RouteRequest) throws -> HTTPHandlerResult {
        let limit = try request.exchange.query("limit").map { value throws(SwitchboardError) in
            Int(try Cursor.integer(value, name: "limit", range: 1...Int64(ConversationPage.mostConversations)))
        } ?? ConversationPage.defaultConversations
        let cursor = try request.exchange.query("before").map { value throws(SwitchboardError) in
            guard let cursor = ConversationCursor(text: value) else {
                throw .badParameter("before", "must be the 'prev' of an earlier page (LAST:ROOM)")
            }
            return cursor
        }
        return request.waiting(for: { done in
            try request.services.conversations.list(for: request.identity, after: cursor, limit: limit, completion: done)
        }, answer: { listed in
            .json(200, ConversationJSON.list(listed.page, unread: listed.unread))
        })
    }

    /// `GET /api/conversations/{room}` → the conversation with `read`.
    static func one(_ request: RouteRequest) throws -> HTTPHandlerResult {
        request.waiting(for: { done in
            try request.services.conversations.one(request.room, for: request.identity, completion: done)
        }, answer: { found in .json(200, ConversationJSON(found.0, read: found.1).bytes) })
    }
}
