import SwitchboardCore

/// The HTTP API's endpoints, matched from a method and a path with no I/O.
/// (WebSocket's paths are its own module's: see ``HTTPUpgradeEndpoint``.)
public enum APIRoute: Equatable, Sendable {
    /// `POST /api/rooms/{room}/messages`
    case publish(room: String)
    /// `GET /api/rooms/{room}/messages` (short and long poll)
    case poll(room: String)
    /// `GET /api/rooms/{room}/messages/{id}`
    case message(room: String, id: String)
    /// `GET /api/rooms/{room}/events`
    case roomEvents(room: String)
    /// `GET /api/events?rooms=a,b`
    case events
    /// `GET /api/rooms/{room}/presence`
    case presence(room: String)
    /// `GET /api/rooms`
    case rooms
    /// `GET /healthz`
    case health
    /// `GET /metrics`
    case metrics
    /// `GET /api/admin/stats` (admin token)
    case adminStats
    /// `GET /api/admin/connections`: clients per transport and who is on which (admin token)
    case adminConnections
    /// `GET /api/admin/stats/events`: the stats as SSE, once a second (admin token)
    case adminStatsEvents
    /// `POST /api/admin/rooms/{room}/system` (admin token)
    case adminSystemMessage(room: String)
    /// `POST /api/admin/users/{user}/kick` (admin token)
    case adminKick(user: String)
    /// `DELETE /api/admin/messages/{id}` (admin token)
    case adminDelete(id: String)
    /// `POST /api/accounts`: register
    case accounts
    /// `POST /api/sessions`: sign in
    case sessions
    /// `DELETE /api/sessions/current`: sign out
    case currentSession
    /// `GET /api/me`: who the token is
    case me
    /// `GET /api/admin/accounts`: accounts, bans, who is signed in (admin token)
    case adminAccounts
    /// `POST /api/admin/users/{user}/ban` (admin token)
    case adminBan(user: String)
    /// `DELETE /api/admin/users/{user}/ban` (admin token)
    case adminLift(user: String)
    /// `GET /api/conversations`: the caller's conversations
    case conversationList
    /// `POST /api/conversations`: a new group or direct conversation
    case createConversation
    /// `GET /api/conversations/{room}`: one, with everyone's read marker
    case conversation(room: String)
    /// `PATCH /api/conversations/{room}`: rename
    case renameConversation(room: String)
    /// `POST /api/conversations/{room}/members`: add someone
    case addMember(room: String)
    /// `DELETE /api/conversations/{room}/members/{user}`: remove someone (`me`: leave)
    case removeMember(room: String, user: String)
    /// `PUT /api/conversations/{room}/members/me`: mute or unmute
    case setMembership(room: String)
    /// `PUT /api/conversations/{room}/read`: move the caller's read marker
    case markRead(room: String)
    /// `POST /api/conversations/{room}/typing`: tell the others the caller is typing
    case typing(room: String)

    /// The conversation room a route is about, if any.
    public var conversationRoom: String? {
        switch self {
        case .conversation(let room), .renameConversation(let room), .addMember(let room), .removeMember(let room, _),
             .setMembership(let room), .markRead(let room), .typing(let room):
            return room
        default: return nil
        }
    }

    /// Who may use this route: every route says it here, and the router
    /// checks it on the route that matched (never on the raw path). The
    /// switch is exhaustive, so a new route cannot be added without it.
    public var access: RouteAccess {
        switch self {
        case .health, .metrics, .accounts, .sessions:
            return .anyone
        case .publish, .poll, .message, .roomEvents, .events, .presence, .rooms, .currentSession:
            return .identified
        case .me, .conversationList, .createConversation:
            return .signedIn
        case .conversation, .renameConversation, .addMember, .removeMember, .setMembership, .markRead, .typing:
            return .member
        case .adminStats, .adminConnections, .adminStatsEvents, .adminSystemMessage, .adminKick, .adminDelete,
             .adminAccounts, .adminBan, .adminLift:
            return .admin
        }
    }

    /// The outcome of matching a request line.
    public enum Match: Equatable, Sendable {
        /// A known endpoint.
        case route(APIRoute)
        /// No endpoint has this path.
        case notFound
        /// The path exists but takes only these methods.
        case methodNotAllowed(allowed: [String])
        /// The path is not canonical (`//`, `.` or `..`): no route, file or upgrade (see ``RequestPath``).
        case invalidPath
    }

    /// Matches a request line. `HEAD` is accepted wherever `GET` is.
    ///
    /// On every request's path (a profile of 1,000 long-polling clients had
    /// the generic `split` and `String` copies at 8% of the server's time):
    /// the path is cut into substrings once (``RequestPath``), compared byte
    /// by byte, and only the parameters become `String`s.
    public static func match(method: String, path: String) -> Match {
        guard let segments = RequestPath.segments(path) else { return .invalidPath }
        return match(method: method, segments: segments)
    }

    /// Matches the segments of a path already read by ``RequestPath``.
    public static func match(method: String, segments: [Substring]) -> Match {
        func at(_ index: Int, _ literal: StaticString) -> Bool { Self.equal(segments[index], literal) }
        func `is`(_ literals: StaticString...) -> Bool {
            literals.count == segments.count && literals.indices.allSatisfy { at($0, literals[$0]) }
        }
        let room: String? = segments.count >= 3 && at(0, "api") && at(1, "rooms") ? String(segments[2]) : nil
        // The requests of every poll, long poll, stream and publish first,
        // before the list below and its arrays of methods.
        if let room, segments.count == 4 {
            if at(3, "messages") {
                if method == "GET" || method == "HEAD" { return .route(.poll(room: room)) }
                if method == "POST" { return .route(.publish(room: room)) }
            } else if at(3, "events"), method == "GET" || method == "HEAD" {
                return .route(.roomEvents(room: room))
            }
        }
        let candidate: (route: APIRoute, methods: [String])?
        switch segments.count {
        case 1 where at(0, "healthz"):
            candidate = (.health, ["GET"])
        case 1 where at(0, "metrics"):
            candidate = (.metrics, ["GET"])
        case 3 where `is`("api", "admin", "stats"):
            candidate = (.adminStats, ["GET"])
        case 3 where `is`("api", "admin", "connections"):
            candidate = (.adminConnections, ["GET"])
        case 4 where `is`("api", "admin", "stats", "events"):
            candidate = (.adminStatsEvents, ["GET"])
        case 4 where at(0, "api") && at(1, "admin") && at(2, "messages"):
            let id = String(segments[3])
            if method == "DELETE" { return .route(.adminDelete(id: id)) }
            candidate = (.adminDelete(id: id), ["DELETE"])
        case 5 where at(0, "api") && at(1, "admin") && at(2, "users") && at(4, "kick"):
            let user = String(segments[3])
            if method == "POST" { return .route(.adminKick(user: user)) }
            candidate = (.adminKick(user: user), ["POST"])
        case 5 where at(0, "api") && at(1, "admin") && at(2, "users") && at(4, "ban"):
            let user = String(segments[3])
            if method == "POST" { return .route(.adminBan(user: user)) }
            if method == "DELETE" { return .route(.adminLift(user: user)) }
            candidate = (.adminBan(user: user), ["POST", "DELETE"])
        case 3 where `is`("api", "admin", "accounts"):
            candidate = (.adminAccounts, ["GET"])
        case 2 where `is`("api", "accounts"):
            candidate = (.accounts, ["POST"])
        case 2 where `is`("api", "sessions"):
            candidate = (.sessions, ["POST"])
        case 3 where `is`("api", "sessions", "current"):
            candidate = (.currentSession, ["DELETE"])
        case 2 where `is`("api", "me"):
            candidate = (.me, ["GET"])
        case 5 where at(0, "api") && at(1, "admin") && at(2, "rooms") && at(4, "system"):
            let room = String(segments[3])
            if method == "POST" { return .route(.adminSystemMessage(room: room)) }
            candidate = (.adminSystemMessage(room: room), ["POST"])
        case 2 where `is`("api", "conversations"):
            if method == "POST" { return .route(.createConversation) }
            candidate = (.conversationList, ["GET", "POST"])
        case 3 where at(0, "api") && at(1, "conversations"):
            let room = String(segments[2])
            if method == "PATCH" { return .route(.renameConversation(room: room)) }
            candidate = (.conversation(room: room), ["GET", "PATCH"])
        case 4 where at(0, "api") && at(1, "conversations") && at(3, "members"):
            candidate = (.addMember(room: String(segments[2])), ["POST"])
        case 5 where at(0, "api") && at(1, "conversations") && at(3, "members"):
            let (room, user) = (String(segments[2]), String(segments[4]))
            if method == "PUT" && user == "me" { return .route(.setMembership(room: room)) }
            candidate = (.removeMember(room: room, user: user), user == "me" ? ["DELETE", "PUT"] : ["DELETE"])
        case 4 where at(0, "api") && at(1, "conversations") && at(3, "read"):
            candidate = (.markRead(room: String(segments[2])), ["PUT"])
        case 4 where at(0, "api") && at(1, "conversations") && at(3, "typing"):
            candidate = (.typing(room: String(segments[2])), ["POST"])
        case 2 where `is`("api", "rooms"):
            candidate = (.rooms, ["GET"])
        case 2 where `is`("api", "events"):
            candidate = (.events, ["GET"])
        case 4 where room != nil && at(3, "messages"):
            if method == "POST" { return .route(.publish(room: room!)) }
            candidate = (.poll(room: room!), ["GET", "POST"])
        case 4 where room != nil && at(3, "presence"):
            candidate = (.presence(room: room!), ["GET"])
        case 4 where room != nil && at(3, "events"):
            candidate = (.roomEvents(room: room!), ["GET"])
        case 5 where room != nil && at(3, "messages"):
            candidate = (.message(room: room!, id: String(segments[4])), ["GET"])
        default:
            candidate = nil
        }
        guard let candidate else { return .notFound }
        // Only the route's own methods: a GET must never kick or delete.
        guard candidate.methods.contains(method) || (method == "HEAD" && candidate.methods.contains("GET")) else {
            return .methodNotAllowed(allowed: candidate.methods)
        }
        return .route(candidate.route)
    }

    /// Byte-for-byte equality with an ASCII literal.
    static func equal(_ segment: Substring, _ literal: StaticString) -> Bool {
        let bytes = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        return segment.utf8Equals(bytes)
    }
}
