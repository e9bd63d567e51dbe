import MicroHTTPD
import SwitchboardCore

extension RouteTable {
    /// Every endpoint of the HTTP API, each declared here once: method,
    /// path, who may use it, name, handler. (WebSocket's paths are its own
    /// module's: see ``HTTPUpgradeEndpoint``; files and upgrades are the
    /// router's fallback for a path no route has.)
    static let api = RouteTable([
        // The requests of every poll, long poll, stream and publish first.
        // A reader's `?user=` is read once, for its admission and its presence.
        Route("GET", "/api/rooms/{room}/messages", .identified, "poll") { request in
            let naming = request.exchange.query("user")
            try admitNamedReader(request, to: request.room, naming: naming)
            return try Polling.answer(room: request.room, identity: request.identity, naming: naming, exchange: request.exchange,
                                      services: request.services)
        },
        Route("POST", "/api/rooms/{room}/messages", .identified, "publish") { request in
            try Publish.message(room: request.room, identity: request.identity, exchange: request.exchange, services: request.services)
        },
        Route("GET", "/api/rooms/{room}/events", .identified, "roomEvents") { request in
            let naming = request.exchange.query("user")
            try admitNamedReader(request, to: request.room, naming: naming)
            return .respond(try ServerSentEvents.open(.room(request.room), identity: request.identity, naming: naming,
                                                      exchange: request.exchange, services: request.services))
        },
        Route("GET", "/api/events", .identified, "events") { request in
            let filter = try request.services.limits.validRooms(request.exchange.query("rooms"))
            try request.services.access.checkRooms(request.identity, filter)
            let naming = request.exchange.query("user")
            for room in filter.names { try admitNamedReader(request, to: room, naming: naming) }
            return .respond(try ServerSentEvents.open(filter, identity: request.identity, naming: naming,
                                                      exchange: request.exchange, services: request.services))
        },
        Route("GET", "/api/rooms/{room}/messages/{id}", .identified, "message") { request in
            try RoomEndpoints.message(room: request.room, id: request.parameter("id"), exchange: request.exchange,
                                      services: request.services)
        },
        // What people do to messages (Core's MessageActService decides).
        Route("PATCH", "/api/rooms/{room}/messages/{id}", .identified, "edit") { request in
            try ActEndpoints.edit(request)
        },
        Route("DELETE", "/api/rooms/{room}/messages/{id}", .identified, "unsend") { request in
            try ActEndpoints.unsend(request)
        },
        Route("GET", "/api/rooms/{room}/messages/{id}/replies", .identified, "replies") { request in
            try ActEndpoints.replies(request)
        },
        Route("PUT", "/api/rooms/{room}/messages/{id}/reactions/{emoji}", .identified, "react") { request in
            try ActEndpoints.react(request, on: true)
        },
        Route("DELETE", "/api/rooms/{room}/messages/{id}/reactions/{emoji}", .identified, "unreact") { request in
            try ActEndpoints.react(request, on: false)
        },
        Route("GET", "/api/rooms/{room}/presence", .identified, "presence") { request in
            .respond(RoomEndpoints.presence(room: request.room, services: request.services))
        },
        Route("GET", "/api/rooms", .identified, "rooms") { request in
            let (access, identity) = (request.services.access, request.identity)
            try access.checkSignedIn(identity)
            // Public rooms only: conversations are listed by /api/conversations, to their members.
            return try RoomEndpoints.rooms(request.services, exchange: request.exchange) { room in
                (identity == .admin || !ConversationRoom.isConversation(room)) && (try? access.checkRoom(identity, room)) != nil
            }
        },
        Route("GET", "/healthz", .anyone, "health") { request in
            RoomEndpoints.health(request.exchange, request.services)
        },
        Route("GET", "/metrics", .anyone, "metrics") { request in
            .respond(RoomEndpoints.metrics(request.services))
        },

        // Accounts and sessions. Signing in needs no token (a stale cookie
        // must not stop it); registering only asks whether it is the admin.
        Route("POST", "/api/accounts", .anyone, "register") { request in
            try AccountEndpoints.register(request.exchange, identity: request.identity, services: request.services)
        },
        Route("POST", "/api/sessions", .anyone, "signIn") { request in
            try AccountEndpoints.signIn(request.exchange, services: request.services)
        },
        Route("DELETE", "/api/sessions/current", .identified, "signOut") { request in
            try AccountEndpoints.signOut(request.exchange, identity: request.identity, services: request.services)
        },
        // Web Push: the key to subscribe with, and subscriptions (WebPushService decides).
        Route("GET", "/api/push/key", .anyone, "pushKey") { request in try PushEndpoints.key(request) },
        Route("POST", "/api/push/subscriptions", .signedIn, "pushSubscribe") { request in try PushEndpoints.subscribe(request) },
        Route("DELETE", "/api/push/subscriptions", .signedIn, "pushUnsubscribe") { request in try PushEndpoints.unsubscribe(request) },
        Route("GET", "/api/me", .signedIn, "me") { request in
            try AccountEndpoints.me(request.exchange, identity: request.identity, services: request.services)
        },

        // Conversations: the router has checked that the caller is signed in
        // and, for a `{room}`, a member of that conversation.
        Route("GET", "/api/conversations", .signedIn, "conversationList") { request in
            try ConversationEndpoints.list(request)
        },
        Route("POST", "/api/conversations", .signedIn, "createConversation") { request in
            try ConversationEndpoints.create(request)
        },
        Route("GET", "/api/conversations/{room}", .member, "conversation") { request in
            try ConversationEndpoints.one(request)
        },
        Route("PATCH", "/api/conversations/{room}", .member, "renameConversation") { request in
            try ConversationEndpoints.rename(request)
        },
        Route("POST", "/api/conversations/{room}/members", .member, "addMember") { request in
            try ConversationEndpoints.add(request)
        },
        Route("PUT", "/api/conversations/{room}/members/me", .member, "setMembership") { request in
            try ConversationEndpoints.setMembership(request)
        },
        Route("DELETE", "/api/conversations/{room}/members/{user}", .member, "removeMember") { request in
            try ConversationEndpoints.remove(request)
        },
        Route("PUT", "/api/conversations/{room}/read", .member, "markRead") { request in
            try ConversationEndpoints.markRead(request)
        },
        Route("POST", "/api/conversations/{room}/typing", .member, "typing") { request in
            try ConversationEndpoints.typing(request)
        },

        // Uploads: the body streamed to disk, then what a message carries;
        // files to whoever may read a message that carries them (MediaService decides).
        Route("POST", "/api/media", .identified, "upload", body: MediaEndpoints.body) { request in
            try MediaEndpoints.upload(request)
        },
        Route("GET", "/api/media/{id}", .identified, "media") { request in
            try MediaEndpoints.download(request, .original)
        },
        Route("GET", "/api/media/{id}/thumbnail", .identified, "thumbnail") { request in
            try MediaEndpoints.download(request, .thumbnail)
        },

        // The admin's (the router has checked the token).
        Route("GET", "/api/admin/media", .admin, "adminMedia") { request in
            try MediaEndpoints.usage(request)
        },
        Route("DELETE", "/api/admin/media/{id}", .admin, "adminDeleteMedia") { request in
            try MediaEndpoints.delete(request)
        },
        Route("GET", "/api/admin/stats", .admin, "adminStats") { request in
            request.admin.stats(request.exchange)
        },
        Route("GET", "/api/admin/stats/events", .admin, "adminStatsEvents") { request in
            .respond(try request.admin.statsEvents(request.exchange))
        },
        Route("GET", "/api/admin/connections", .admin, "adminConnections") { request in
            .respond(request.admin.connections())
        },
        Route("POST", "/api/admin/rooms/{room}/system", .admin, "adminSystemMessage") { request in
            try Publish.systemMessage(room: request.room, exchange: request.exchange, services: request.services)
        },
        Route("POST", "/api/admin/users/{user}/kick", .admin, "adminKick") { request in
            .respond(try request.admin.kick(user: request.user()))
        },
        Route("DELETE", "/api/admin/messages/{id}", .admin, "adminDelete") { request in
            try request.admin.delete(id: request.parameter("id"), exchange: request.exchange)
        },
        Route("GET", "/api/admin/accounts", .admin, "adminAccounts") { request in
            try AccountEndpoints.list(request.exchange, services: request.services)
        },
        Route("POST", "/api/admin/users/{user}/ban", .admin, "adminBan") { request in
            try AccountEndpoints.ban(user: request.user(), exchange: request.exchange, services: request.services)
        },
        Route("DELETE", "/api/admin/users/{user}/ban", .admin, "adminLift") { request in
            try AccountEndpoints.lift(user: request.user(), exchange: request.exchange, services: request.services)
        },
    ])

    /// A named reader (`?user=`, or a signed-in one) is present: its join
    /// makes a new room exist (counted against the room-creation limit) and,
    /// under a publish rate, takes a publish (``AccessControl/admitPresence(_:user:room:presence:client:)``).
    /// `naming` is the request's `?user=`.
    private static func admitNamedReader(_ request: RouteRequest, to room: String, naming: String?) throws {
        guard request.identity.user != nil || naming != nil else { return }
        let access = request.services.access, client = request.exchange.clientAddress ?? "unknown"
        try access.admitRoom(request.identity, room, client: client)
        guard access.limitsPublishing,
              let user = try request.services.namedReader(request.identity, naming: naming)
        else { return }
        try access.admitPresence(request.identity, user: user, room: room, presence: request.services.presence, client: client)
    }
}
