import Testing
@testable import SwitchboardHTTP

/// The route table, matched without I/O.
@Suite("API routes")
struct APIRouteTests {
    @Test(arguments: [
        ("GET", "/healthz", APIRoute.Match.route(.health)),
        ("GET", "/metrics", .route(.metrics)),
        ("GET", "/api/rooms", .route(.rooms)),
        ("GET", "/api/events", .route(.events)),
        ("POST", "/api/rooms/lobby/messages", .route(.publish(room: "lobby"))),
        ("GET", "/api/rooms/lobby/messages", .route(.poll(room: "lobby"))),
        ("HEAD", "/api/rooms/lobby/messages", .route(.poll(room: "lobby"))),
        ("GET", "/api/rooms/lobby/messages/42", .route(.message(room: "lobby", id: "42"))),
        ("GET", "/api/rooms/lobby/events", .route(.roomEvents(room: "lobby"))),
        ("GET", "/api/rooms/lobby/presence", .route(.presence(room: "lobby"))),
        ("GET", "/api/admin/stats", .route(.adminStats)),
        ("GET", "/api/admin/connections", .route(.adminConnections)),
        ("GET", "/api/admin/stats/events", .route(.adminStatsEvents)),
        ("POST", "/api/admin/rooms/lobby/system", .route(.adminSystemMessage(room: "lobby"))),
        ("POST", "/api/admin/users/luke/kick", .route(.adminKick(user: "luke"))),
        ("DELETE", "/api/admin/messages/7", .route(.adminDelete(id: "7"))),
        // One trailing slash is the same path; an empty, "." or ".." segment is no path at all.
        ("GET", "/api/rooms/lobby/messages/", .route(.poll(room: "lobby"))),
        ("GET", "//api//rooms/lobby/messages/", .invalidPath),
        ("GET", "/api//admin/stats", .invalidPath),
        ("GET", "//api/admin/stats", .invalidPath),
        ("GET", "/api/./admin/stats", .invalidPath),
        ("GET", "/api/x/../admin/stats", .invalidPath),
        ("GET", "/api/admin/stats//", .invalidPath),
        ("GET", "api/admin/stats", .invalidPath),
        ("GET", "/api/rooms/caf\u{E9}-\u{1F600}/events", .route(.roomEvents(room: "caf\u{E9}-\u{1F600}"))),
        ("PUT", "/api/rooms/lobby/events", .methodNotAllowed(allowed: ["GET"])),
        // Names are compared exactly.
        ("GET", "/API/rooms", .notFound),
        ("GET", "/api/roomsx", .notFound),
        ("GET", "/api/rooms/lobby/message", .notFound),
        ("GET", "/", .notFound),
        ("GET", "/api/rooms/lobby/messages/1/2", .notFound),
        ("DELETE", "/api/rooms/lobby/messages", .methodNotAllowed(allowed: ["GET", "POST"])),
        // A bug this table found: GET (a prefetch, a link) matched the
        // admin's POST and DELETE routes and acted on them.
        ("GET", "/api/admin/users/luke/kick", .methodNotAllowed(allowed: ["POST"])),
        ("GET", "/api/admin/messages/7", .methodNotAllowed(allowed: ["DELETE"])),
        ("HEAD", "/api/admin/rooms/lobby/system", .methodNotAllowed(allowed: ["POST"])),
        ("POST", "/healthz", .methodNotAllowed(allowed: ["GET"])),
    ] as [(String, String, APIRoute.Match)])
    func matches(method: String, path: String, expected: APIRoute.Match) {
        #expect(APIRoute.match(method: method, path: path) == expected)
    }

    @Test func aPathIsReadOnceAndCanonicalOnly() {
        #expect(RequestPath.segments("/a/b/c/")?.map(String.init) == ["a", "b", "c"])
        #expect(RequestPath.segments("/")?.isEmpty == true)
        #expect(RequestPath.segments("/é/ü")?.map(String.init) == ["é", "ü"])
        #expect(RequestPath.segments("/\u{1F600}x") == ["\u{1F600}x"])
        #expect(RequestPath.segments("/.well-known/x")?.map(String.init) == [".well-known", "x"])
        for bad in ["", "a", "//", "///", "/a//b", "/a/./b", "/a/../b", "/.", "/..", "/a/.", "//a", "/a//"] {
            #expect(RequestPath.segments(bad) == nil, "\(bad)")
        }
        #expect(RequestPath.canonical(["a", "b"]) == "/a/b" && RequestPath.canonical([]) == "/")
    }

    /// Every admin route says so itself; the router checks it on the route that matched.
    @Test(arguments: [
        ("GET", "/api/admin/stats"), ("GET", "/api/admin/connections"), ("GET", "/api/admin/stats/events"),
        ("POST", "/api/admin/rooms/c.1/system"), ("POST", "/api/admin/users/leia/kick"), ("DELETE", "/api/admin/messages/2"),
        ("GET", "/api/admin/accounts"), ("POST", "/api/admin/users/leia/ban"), ("DELETE", "/api/admin/users/leia/ban"),
        ("GET", "/api/admin/stats/"),
    ])
    func adminRoutesAreTheAdminsOnly(method: String, path: String) {
        guard case .route(let route) = APIRoute.match(method: method, path: path) else {
            Issue.record("\(method) \(path) matched no route")
            return
        }
        #expect(route.access == .admin)
    }
}
