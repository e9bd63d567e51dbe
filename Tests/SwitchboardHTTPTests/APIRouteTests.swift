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
        // Empty segments are ignored, as before.
        ("GET", "//api//rooms/lobby/messages/", .route(.poll(room: "lobby"))),
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

    @Test func segmentsAreTheNonEmptyPartsBetweenSlashes() {
        #expect(APIRoute.segments("/a//b/c/").map(String.init) == ["a", "b", "c"])
        #expect(APIRoute.segments("").isEmpty && APIRoute.segments("///").isEmpty)
        #expect(APIRoute.segments("/é/ü").map(String.init) == ["é", "ü"])
        #expect(APIRoute.segments("a") == ["a"] && APIRoute.segments("/\u{1F600}x") == ["\u{1F600}x"])
    }
}
