import MicroHTTPD
import SwitchboardCore

/// Group and direct conversations (`/api/conversations`). Membership
/// changes are stored as `system` messages with an event, through the
/// group commit like any publish, and answered once stored; lists, read
/// markers and mutes are read and written on the services' queue. The
/// router has checked, before any of these runs, that the caller is signed
/// in and, for a room, a member.
enum ConversationEndpoints {
    /// The signed-in user a conversation request is made as.
    static func caller(_ identity: Identity) throws(SwitchboardError) -> String {
        guard let user = identity.user else {
            throw SwitchboardError(.unauthenticated, code: "unauthorized", message: "Conversations are for signed-in users: sign in first.")
        }
        return user
    }

    /// `POST /api/conversations {"title","members"}` → 201, or 200 with the
    /// pair's existing direct conversation.
    static func create(_ exchange: HTTPExchange, identity: Identity, services: HTTPServices) throws -> HTTPHandlerResult {
        let user = try caller(identity)
        let request = try ConversationRequest.decode(exchange.body, contentType: exchange.header("Content-Type"))
        var others: [String] = []
        for name in request.members {
            let member = try account(name, services)
            let key = member.lowercased()
            if key != user.lowercased(), !others.contains(where: { $0.lowercased() == key }) { others.append(member) }
        }
        guard !others.isEmpty else {
            throw SwitchboardError(.invalid, code: "no_members", message: "Name at least one other member in 'members'.")
        }
        let title = try request.title.map(ConversationRequest.validTitle)
        let direct = others.count == 1 && title == nil
        let conversations = services.bus.conversations, other = others[0]
        if direct, let existing = conversations.direct(between: user, and: others[0]) {
            return .respond(.json(200, ConversationJSON(existing).bytes))
        }
        try services.access.admitPublish(identity, speaker: user, client: exchange.clientAddress ?? "unknown")
        let event = ConversationEvent(type: .created, actor: user, title: direct ? nil : title ?? others.joined(separator: ", "),
                                      members: [user] + others, direct: direct)
        return PendingAnswer.suspend(exchange, until: { done in
            services.bus.announce(event.draft(room: ConversationRoom.unnamed), completion: done)
        }, answer: { result in
            if let stored = try result.get() {
                return .json(201, ConversationJSON(created: event, room: stored.message.room).bytes,
                             headers: [("Location", "/api/conversations/\(stored.message.room)")])
            }
            // Another request made the pair's conversation first.
            guard let existing = conversations.direct(between: user, and: other) else { throw SwitchboardError.storeFailure("not kept") }
            return .json(200, ConversationJSON(existing).bytes)
        })
    }

    /// `PATCH /api/conversations/{room} {"title"}` → 200.
    static func rename(room: String, _ exchange: HTTPExchange, identity: Identity, services: HTTPServices) throws -> HTTPHandlerResult {
        let user = try caller(identity)
        let conversation = try group(room, services)
        let fields = try RequestFields.decode(["title"], contentType: exchange.header("Content-Type"), body: exchange.body)
        let title = try ConversationRequest.validTitle(RequestFields.string(fields, "title"))
        guard title != conversation.title else { return .respond(.json(200, ConversationJSON(conversation).bytes)) }
        return change(ConversationEvent(type: .renamed, actor: user, title: title), in: room, exchange, services, status: 200)
    }

    /// `POST /api/conversations/{room}/members {"user"}` → 200.
    static func add(room: String, _ exchange: HTTPExchange, identity: Identity, services: HTTPServices) throws -> HTTPHandlerResult {
        let user = try caller(identity)
        let conversation = try group(room, services)
        let fields = try RequestFields.decode(["user"], contentType: exchange.header("Content-Type"), body: exchange.body)
        let member = try account(RequestFields.string(fields, "user"), services)
        if conversation.hasMember(member) { return .respond(.json(200, ConversationJSON(conversation).bytes)) }
        return change(ConversationEvent(type: .added, actor: user, user: member), in: room, exchange, services, status: 200)
    }

    /// `DELETE /api/conversations/{room}/members/{user}` (`me`: leave) → 204.
    static func remove(room: String, member named: String, _ exchange: HTTPExchange, identity: Identity,
                       services: HTTPServices) throws -> HTTPHandlerResult {
        let user = try caller(identity)
        let conversation = try group(room, services)
        let leaving = named == "me" || named.lowercased() == user.lowercased()
        guard let member = leaving ? user : conversation.members.first(where: { $0.lowercased() == named.lowercased() }) else {
            throw SwitchboardError(.notFound, code: "no_such_member", message: "'\(named)' is not a member of \(room).")
        }
        let event = leaving ? ConversationEvent(type: .left, actor: user, user: user)
            : ConversationEvent(type: .removed, actor: user, user: member)
        return change(event, in: room, exchange, services, status: 204)
    }

    /// `PUT /api/conversations/{room}/members/me {"muted":true|false}` → 200 `{"room","muted"}`.
    static func setMembership(room: String, _ exchange: HTTPExchange, identity: Identity,
                              services: HTTPServices) throws -> HTTPHandlerResult {
        let user = try caller(identity), store = try store(services)
        let fields = try RequestFields.decode(["muted"], contentType: exchange.header("Content-Type"), body: exchange.body)
        guard case .bool(let muted)? = fields["muted"] else {
            throw SwitchboardError(.invalid, code: "missing_field", message: "Field 'muted' (true or false) is required.")
        }
        return QueuedAnswer.run(exchange, services, what: "mute") {
            guard try store.setMuted(room: room, user: user, muted: muted) else { throw SwitchboardError.notAMember(room) }
            struct Muted: Encodable { var room: String; var muted: Bool }
            return (200, MessageJSON.encode(Muted(room: room, muted: muted)), [])
        }
    }

    /// `PUT /api/conversations/{room}/read {"id":N}` → 200 `{"room","read"}`;
    /// the other members' open streams hear the receipt.
    static func markRead(room: String, _ exchange: HTTPExchange, identity: Identity, services: HTTPServices) throws -> HTTPHandlerResult {
        let user = try caller(identity), store = try store(services)
        let fields = try RequestFields.decode(["id"], contentType: exchange.header("Content-Type"), body: exchange.body)
        let id: Int64
        switch fields["id"] {
        case .number(let text)?: id = try Cursor.integer(text, name: "id", range: 0...Int64.max)
        case .string(let text)?: id = try Cursor.integer(text, name: "id", range: 0...Int64.max)
        default: throw SwitchboardError(.invalid, code: "missing_field", message: "Field 'id' (a message id) is required.")
        }
        return QueuedAnswer.run(exchange, services, what: "read marker") {
            guard let marker = try store.markRead(room: room, user: user, id: id) else { throw SwitchboardError.notAMember(room) }
            if marker == id { services.notices.say(.read(room: room, user: user, id: marker)) }
            struct Read: Encodable { var room: String; var read: Int64 }
            return (200, MessageJSON.encode(Read(room: room, read: marker)), [])
        }
    }

    /// `POST /api/conversations/{room}/typing` → 204: the others' open streams
    /// hear it (at most once a second per user and room).
    static func typing(room: String, identity: Identity, services: HTTPServices) throws -> HTTPResponse {
        services.notices.say(.typing(room: room, user: try caller(identity)))
        return HTTPResponse(status: 204, headers: [], body: .bytes([]))
    }

    /// `GET /api/conversations` → `{"conversations":[..],"unread":N}`.
    static func list(_ exchange: HTTPExchange, identity: Identity, services: HTTPServices) throws -> HTTPHandlerResult {
        let user = try caller(identity), store = try store(services)
        return QueuedAnswer.run(exchange, services, what: "conversation list") {
            let summaries = try store.summaries(for: user)
            struct List: Encodable { var conversations: [ConversationJSON]; var unread: Int }
            let unread = summaries.filter { !$0.muted }.reduce(0) { $0 + $1.unread }
            return (200, MessageJSON.encode(List(conversations: summaries.map { ConversationJSON($0) }, unread: unread)), [])
        }
    }

    /// `GET /api/conversations/{room}` → the conversation with `read`.
    static func one(room: String, _ exchange: HTTPExchange, identity: Identity, services: HTTPServices) throws -> HTTPHandlerResult {
        let user = try caller(identity), store = try store(services)
        return QueuedAnswer.run(exchange, services, what: "conversation") {
            guard let summary = try store.summaries(for: user).first(where: { $0.conversation.room == room }) else {
                throw SwitchboardError.notAMember(room)
            }
            return (200, ConversationJSON(summary, read: try store.readMarkers(in: room)).bytes, [])
        }
    }

    /// The caller's unread total over conversations not muted (`GET /api/me`).
    static func unread(of user: String, services: HTTPServices) throws -> Int? {
        try services.conversationStore?.unread(for: user)
    }

    // MARK: -

    /// Stores `event` in `room` and answers `status` once it is stored.
    private static func change(_ event: ConversationEvent, in room: String, _ exchange: HTTPExchange,
                               _ services: HTTPServices, status: Int) -> HTTPHandlerResult {
        let conversations = services.bus.conversations
        return PendingAnswer.suspend(exchange, until: { done in
            services.bus.announce(event.draft(room: room), completion: done)
        }, answer: { result in
            _ = try result.get()
            if status == 204 { return HTTPResponse(status: 204, headers: [], body: .bytes([])) }
            guard let conversation = conversations.conversation(room) else { throw SwitchboardError.notAMember(room) }
            return .json(status, ConversationJSON(conversation).bytes)
        })
    }

    /// The group conversation of `room` (a direct one is refused: it has
    /// two members for good, and no title).
    private static func group(_ room: String, _ services: HTTPServices) throws(SwitchboardError) -> Conversation {
        guard let conversation = services.bus.conversations.conversation(room) else { throw .notAMember(room) }
        if conversation.direct {
            throw SwitchboardError(.conflict, code: "direct_conversation",
                                   message: "A direct conversation keeps its two members and has no title; start a group instead.")
        }
        return conversation
    }

    /// The account named `name` (in any case), as it spells itself.
    private static func account(_ name: String, _ services: HTTPServices) throws(SwitchboardError) -> String {
        guard let member = services.access.registeredName(try services.limits.validUser(name)) else {
            throw SwitchboardError(.notFound, code: "no_such_user", message: "There is no account named '\(name)'.")
        }
        return member
    }

    private static func store(_ services: HTTPServices) throws(SwitchboardError) -> any ConversationStore {
        guard let store = services.conversationStore else {
            throw SwitchboardError(.unavailable, code: "no_conversations", message: "This server's store keeps no conversations.")
        }
        return store
    }
}
