import Testing
@testable import SwitchboardHTTP

/// The route table, matched without I/O.
@Suite("API routes")
struct APIRouteTests {
    @Test(arguments: [
        ("GET", "/healthz", "health"),
        ("GET", "/metrics", "metrics"),
        ("GET", "/api/rooms", "rooms"),
        ("GET", "/api/events", "events"),
        ("POST", "/api/rooms/lobby/messages", "publish lobby"),
        ("GET", "/api/rooms/lobby/messages", "poll lobby"),
        ("HEAD", "/api/rooms/lobby/messages", "poll lobby"),
        ("GET", "/api/rooms/lobby/messages/42", "message lobby 42"),
        ("GET", "/api/rooms/lobby/events", "roomEvents lobby"),
        ("GET", "/api/rooms/lobby/presence", "presence lobby"),
        ("GET", "/api/admin/stats", "adminStats"),
        ("GET", "/api/admin/connections", "adminConnections"),
        ("GET", "/api/admin/stats/events", "adminStatsEvents"),
        ("POST", "/api/admin/rooms/lobby/system", "adminSystemMessage lobby"),
        ("POST", "/api/admin/users/luke/kick", "adminKick luke"),
        ("DELETE", "/api/admin/messages/7", "adminDelete 7"),
        // One trailing slash is the same path; an empty, "." or ".." segment is no path at all.
        ("GET", "/api/rooms/lobby/messages/", "poll lobby"),
        ("GET", "//api//rooms/lobby/messages/", "invalidPath"),
        ("GET", "/api//admin/stats", "invalidPath"),
        ("GET", "//api/admin/stats", "invalidPath"),
        ("GET", "/api/./admin/stats", "invalidPath"),
        ("GET", "/api/x/../admin/stats", "invalidPath"),
        ("GET", "/api/admin/stats//", "invalidPath"),
        ("GET", "api/admin/stats", "invalidPath"),
        ("GET", "/api/rooms/caf\u{E9}-\u{1F600}/events", "roomEvents caf\u{E9}-\u{1F600}"),
        ("PUT", "/api/rooms/lobby/events", "405 GET"),
        // Names are compared exactly.
        ("GET", "/API/rooms", "notFound"),
        ("GET", "/api/roomsx", "notFound"),
        ("GET", "/api/rooms/lobby/message", "notFound"),
        ("GET", "/", "notFound"),
        ("GET", "/api/rooms/lobby/messages/1/2", "notFound"),
        ("DELETE", "/api/rooms/lobby/messages", "405 GET,POST"),
        // A bug this table found: GET (a prefetch, a link) matched the
        // admin's POST and DELETE routes and acted on them.
        ("GET", "/api/admin/users/luke/kick", "405 POST"),
        ("GET", "/api/admin/messages/7", "405 DELETE"),
        ("HEAD", "/api/admin/rooms/lobby/system", "405 POST"),
        ("POST", "/healthz", "405 GET"),
        // A literal segment and a parameter in the same place: the literal's method, or the parameter's.
        ("GET", "/api/conversations", "conversationList"),
        ("POST", "/api/conversations", "createConversation"),
        ("PATCH", "/api/conversations/c.1", "renameConversation c.1"),
        ("PUT", "/api/conversations/c.1/members/me", "setMembership c.1"),
        ("DELETE", "/api/conversations/c.1/members/me", "removeMember c.1 me"),
        ("DELETE", "/api/conversations/c.1/members/luke", "removeMember c.1 luke"),
        ("PUT", "/api/conversations/c.1/members/luke", "405 DELETE"),
        ("POST", "/api/conversations/c.1/members/me", "405 DELETE,PUT"),
    ] as [(String, String, String)])
    func matches(method: String, path: String, expected: String) {
        #expect(Self.describe(RouteTable.api.match(method: method, path: path)) == expected)
    }

    /// A match as text: the route's name and parameters, or what else it was.
    static func describe(_ match: RouteTable.Match) -> String {
        switch match {
        case .route(let route, let parameters): return ([route.name] + parameters).joined(separator: " ")
        case .notFound: return "notFound"
        case .invalidPath: return "invalidPath"
        case .methodNotAllowed(let allowed): return "405 " + allowed.joined(separator: ",")
        }
    }

    /// Every route is declared once: no two share a method and a path.
    @Test func everyRouteIsDeclaredOnce() {
        let keys = RouteTable.api.routes.map { "\($0.method) \($0.path)" }
        #expect(Set(keys).count == keys.count)
        #expect(Set(RouteTable.api.routes.map(\.name)).count == keys.count)
    }

    @Test func aPathIsReadOnceAndCanonicalOnly() {
        #expect(RequestPath.segments("/a/b/c/") == ["a", "b", "c"])
        #expect(RequestPath.segments("/")?.isEmpty == true)
        #expect(RequestPath.segments("/é/ü") == ["é", "ü"])
        #expect(RequestPath.segments("/\u{1F600}x") == ["\u{1F600}x"])
        #expect(RequestPath.segments("/.well-known/x") == [".well-known", "x"])
        #expect(RequestPath.segments("/..a/a./.../b") == ["..a", "a.", "...", "b"])
        #expect(RequestPath.segments("/api/rooms/compare-long-poll-3141592653/messages")
                == ["api", "rooms", "compare-long-poll-3141592653", "messages"])
        for bad in ["", "a", "//", "///", "/a//b", "/a/./b", "/a/../b", "/.", "/..", "/a/.", "//a", "/a//",
                    "/api//admin/stats", "/a/..", "/a/./", "/a/../"] {
            #expect(RequestPath.segments(bad) == nil, "\(bad)")
        }
        #expect(RequestPath.canonical(["a", "b"]) == "/a/b" && RequestPath.canonical([]) == "/")
    }

    /// Every route, its parameters filled in, is found with them in order;
    /// with any one byte of a literal segment changed (same length) it is
    /// not that route: the literals are compared where they lie in the path.
    @Test func everyRouteMatchesItsOwnPathAndNoNearMiss() {
        for route in RouteTable.api.routes {
            var values: [String] = []
            let parts = route.path.segments.enumerated().map { index, segment -> String in
                switch segment {
                case .literal(let bytes): return String(decoding: bytes, as: UTF8.self)
                case .parameter:
                    values.append("p\(index)-\u{E9}")
                    return values.last!
                }
            }
            let path = "/" + parts.joined(separator: "/")
            guard case .route(let found, let parameters) = RouteTable.api.match(method: route.method, path: path) else {
                Issue.record("\(route.method) \(path) matched no route")
                continue
            }
            #expect(found === route && parameters == values, "\(route.method) \(path) matched \(found.name) \(parameters)")
            for (index, segment) in route.path.segments.enumerated() {
                guard case .literal(let bytes) = segment else { continue }
                for position in bytes.indices {
                    var changed = bytes
                    changed[position] = changed[position] == UInt8(ascii: "z") ? UInt8(ascii: "y") : UInt8(ascii: "z")
                    var near = parts
                    near[index] = String(decoding: changed, as: UTF8.self)
                    let nearPath = "/" + near.joined(separator: "/")
                    if case .route(let other, _) = RouteTable.api.match(method: route.method, path: nearPath) {
                        #expect(other !== route, "\(route.method) \(nearPath) matched \(route.path)")
                    }
                }
            }
        }
    }

    @Test func aPathsSegmentsAreReadWhereTheyLie() throws {
        let path = try #require(RequestPath.read("/api/rooms/caf\u{E9}/messages/"))
        #expect(path.count == 4 && path.strings == ["api", "rooms", "caf\u{E9}", "messages"])
        #expect(path.segment(0, is: "api") && path.segment(3, is: "messages") && path[2] == "caf\u{E9}")
        #expect(!path.segment(0, is: "ap") && !path.segment(0, is: "apix") && !path.segment(1, is: "api"))
        #expect(RequestPath.read("/")?.count == 0 && RequestPath.read("/a//b") == nil)
    }

    /// Every admin route says so itself; the router checks it on the route that matched.
    @Test(arguments: [
        ("GET", "/api/admin/stats"), ("GET", "/api/admin/connections"), ("GET", "/api/admin/stats/events"),
        ("POST", "/api/admin/rooms/c.1/system"), ("POST", "/api/admin/users/leia/kick"), ("DELETE", "/api/admin/messages/2"),
        ("GET", "/api/admin/accounts"), ("POST", "/api/admin/users/leia/ban"), ("DELETE", "/api/admin/users/leia/ban"),
        ("GET", "/api/admin/stats/"),
    ])
    func adminRoutesAreTheAdminsOnly(method: String, path: String) {
        guard case .route(let route, _) = RouteTable.api.match(method: method, path: path) else {
            Issue.record("\(method) \(path) matched no route")
            return
        }
        #expect(route.access == .admin)
    }
}
