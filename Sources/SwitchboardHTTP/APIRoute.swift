import SwitchboardCore

/// The HTTP API's endpoints, matched from a method and a path with no I/O.
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
    /// `GET /api/rooms/{room}/ws` (WebSocket)
    case roomWebSocket(room: String)
    /// `GET /api/ws?rooms=a,b` (WebSocket)
    case webSocket
    /// `GET /api/test/ws-echo`: WebSocket echo, only with `--websocket-echo` (conformance tests)
    case webSocketEcho
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

    /// The outcome of matching a request line.
    public enum Match: Equatable, Sendable {
        /// A known endpoint.
        case route(APIRoute)
        /// No endpoint has this path.
        case notFound
        /// The path exists but takes only these methods.
        case methodNotAllowed(allowed: [String])
    }

    /// Matches a request line. `HEAD` is accepted wherever `GET` is.
    public static func match(method: String, path: String) -> Match {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let candidate: (route: APIRoute, methods: [String])?
        switch segments.count {
        case 1 where segments[0] == "healthz":
            candidate = (.health, ["GET"])
        case 1 where segments[0] == "metrics":
            candidate = (.metrics, ["GET"])
        case 3 where segments == ["api", "admin", "stats"]:
            candidate = (.adminStats, ["GET"])
        case 3 where segments == ["api", "admin", "connections"]:
            candidate = (.adminConnections, ["GET"])
        case 4 where segments == ["api", "admin", "stats", "events"]:
            candidate = (.adminStatsEvents, ["GET"])
        case 4 where segments[0] == "api" && segments[1] == "admin" && segments[2] == "messages":
            if method == "DELETE" { return .route(.adminDelete(id: segments[3])) }
            candidate = (.adminDelete(id: segments[3]), ["DELETE"])
        case 5 where segments[0] == "api" && segments[1] == "admin" && segments[2] == "users" && segments[4] == "kick":
            if method == "POST" { return .route(.adminKick(user: segments[3])) }
            candidate = (.adminKick(user: segments[3]), ["POST"])
        case 5 where segments[0] == "api" && segments[1] == "admin" && segments[2] == "rooms" && segments[4] == "system":
            if method == "POST" { return .route(.adminSystemMessage(room: segments[3])) }
            candidate = (.adminSystemMessage(room: segments[3]), ["POST"])
        case 2 where segments == ["api", "rooms"]:
            candidate = (.rooms, ["GET"])
        case 2 where segments == ["api", "events"]:
            candidate = (.events, ["GET"])
        case 2 where segments == ["api", "ws"]:
            candidate = (.webSocket, ["GET"])
        case 3 where segments == ["api", "test", "ws-echo"]:
            candidate = (.webSocketEcho, ["GET"])
        case 4 where segments[0] == "api" && segments[1] == "rooms" && segments[3] == "ws":
            candidate = (.roomWebSocket(room: segments[2]), ["GET"])
        case 4 where segments[0] == "api" && segments[1] == "rooms" && segments[3] == "messages":
            let room = segments[2]
            if method == "POST" { return .route(.publish(room: room)) }
            candidate = (.poll(room: room), ["GET", "POST"])
        case 4 where segments[0] == "api" && segments[1] == "rooms" && segments[3] == "presence":
            candidate = (.presence(room: segments[2]), ["GET"])
        case 4 where segments[0] == "api" && segments[1] == "rooms" && segments[3] == "events":
            candidate = (.roomEvents(room: segments[2]), ["GET"])
        case 5 where segments[0] == "api" && segments[1] == "rooms" && segments[3] == "messages":
            candidate = (.message(room: segments[2], id: segments[4]), ["GET"])
        default:
            candidate = nil
        }
        guard let candidate else { return .notFound }
        guard method == "GET" || method == "HEAD" else {
            return .methodNotAllowed(allowed: candidate.methods)
        }
        return .route(candidate.route)
    }
}
