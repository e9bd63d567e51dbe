import Foundation
import GRDB
import SwitchboardHTTP
import SwitchboardTesting
import Testing

/// The holes two black-box probes found (issue 31), each tried the way the
/// attacker tried it, against a running server on loopback. (Floods of
/// pings, joins, sign-ins and sign-ups against the real binary with its
/// default limits, and TLS, are in Tests/Security/security_test.py.)
@Suite("Security")
struct SecurityTests {
    typealias Support = IdentityTestSupport

    /// Every admin route: the method, the path after `/api/admin/`, a body.
    static let adminRoutes: [(method: String, rest: String, body: String?)] = [
        ("GET", "stats", nil), ("GET", "connections", nil), ("GET", "stats/events", nil),
        ("POST", "rooms/lobby/system", #"{"text":"forged"}"#), ("POST", "users/leia/kick", nil),
        ("DELETE", "messages/1", nil), ("GET", "accounts", nil), ("POST", "users/leia/ban", #"{"seconds":60}"#),
        ("DELETE", "users/leia/ban", nil),
    ]

    /// The ways to spell `/api/admin/REST` that once slipped past the token check, and the plain one.
    static func spellings(_ rest: String) -> [String] {
        let encoded = rest.replacingOccurrences(of: "/", with: "%2F")
        return ["/api/admin/\(rest)", "/api//admin/\(rest)", "//api/admin/\(rest)", "/api/./admin/\(rest)",
                "/api/x/../admin/\(rest)", "/api/admin//\(rest)", "/api/admin/\(rest)/", "/api%2Fadmin%2F\(encoded)",
                "/./api/admin/\(rest)", "/api/admin/\(rest)//"]
    }

    @Test func noSpellingOfAnAdminRouteAnswersWithoutTheToken() throws {
        let server = try TestServer()
        let client = server.client
        let kept = try client.publish(text: "must stay")
        for route in Self.adminRoutes {
            for path in Self.spellings(route.rest) {
                let response = try client.request(route.method, path, headers: [("Content-Type", "application/json")],
                                                  body: route.body.map { Array($0.utf8) })
                // Refused: 401 (the route matched, no token) or 400 (no path at all); never served, never "not found".
                #expect([400, 401].contains(response.status), "\(route.method) \(path): \(response.status) \(response.text)")
            }
        }
        // Nothing was done: the message is there, no system message was written, leia is not banned.
        let page = try client.get("/api/rooms/lobby/messages?since=0").page()
        #expect(page.messages.map(\.id) == [kept.id])
        let accounts = try client.get("/api/admin/accounts", headers: Support.bearer(TestServer.adminToken))
        #expect(accounts.status == 200 && !accounts.text.contains("leia"))
    }

    @Test func withTheTokenAPathMeansTheSameAsEverywhereElse() throws {
        let server = try TestServer()
        let client = server.client
        let admin = Support.bearer(TestServer.adminToken)
        for path in ["/api/admin/stats", "/api/admin/stats/", "/api%2Fadmin%2Fstats"] {
            #expect(try client.get(path, headers: admin).status == 200, "\(path)")
        }
        for path in ["/api//admin/stats", "//api/admin/stats", "/api/./admin/stats", "/api/x/../admin/stats"] {
            let response = try client.get(path, headers: admin)
            #expect(response.status == 400 && response.text.contains("invalid_path"), "\(path): \(response.status)")
        }
        // The same rule for every route, the WebSocket paths and the files.
        #expect(try client.get("/api/rooms/lobby/messages/").status == 200)
        #expect(try client.get("/api//rooms/lobby/messages").status == 400)
        let socket = try TestWebSocketClient(port: server.port, path: "//api/ws")
        #expect(socket.status == 400)
        #expect(try TestWebSocketClient(port: server.port, path: "/api/ws/").status == 101)
    }

    /// Names a reader cannot tell from `luke`, as guests, on every way in.
    static let lookalikes: [(name: String, refusal: String)] = [
        ("luke\u{200D}", "invalid_user"), ("lu\u{200B}ke", "invalid_user"), ("lu\u{00AD}ke", "invalid_user"),
        ("lu\u{2060}ke", "invalid_user"), ("luke\u{FE0F}", "invalid_user"), ("luke\u{E0041}", "invalid_user"),
        ("\u{202E}ekul", "invalid_user"), ("luk\u{0435}", "name_reserved"), ("\u{FF2C}\u{FF55}\u{FF4B}\u{FF45}", "name_reserved"),
        ("\u{2113}uke", "name_reserved"), ("LUKE", "name_reserved"),
        // A capital i is a small L on screen (and a capital iota one too): caught before the case fold.
        ("\u{0196}uke", "name_reserved"), ("Iuke", "name_reserved"),
    ]

    @Test func aNameThatLooksLikeARegisteredOneIsRefusedOnEveryWayIn() throws {
        let server = try TestServer()
        let client = server.client
        _ = try Support.signUp(client, "luke")
        for (name, refusal) in Self.lookalikes {
            let escaped = name.unicodeScalars.map { "\\u{\(String($0.value, radix: 16))}" }.joined()
            // HTTP (JSON), as a guest.
            let published = try client.postJSON("lobby", #"{"user":"\#(name)","text":"hi"}"#)
            #expect(published.status >= 400 && published.text.contains(refusal), "HTTP \(escaped): \(published.status) \(published.text)")
            // WebSocket, naming the user in the query.
            let query = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let socket = try TestWebSocketClient(port: server.port, path: "/api/rooms/lobby/ws?user=\(query)")
            #expect(socket.status >= 400, "WebSocket \(escaped): \(socket.status)")
            // The line protocol's iam:.
            let line = try TestLineClient(port: server.tcpPort)
            try line.write("iam:\(name)\n")
            let answer = try line.readLine()
            #expect(answer == "error:\(refusal)", "iam: \(escaped): \(answer)")
            line.close()
            // And none of them can be registered beside luke.
            let registered = try client.request("POST", "/api/accounts", headers: [("Content-Type", "application/json")],
                                                body: Array(#"{"user":"\#(name)","password":"\#(Support.password)"}"#.utf8))
            #expect(registered.status >= 400, "register \(escaped): \(registered.status)")
        }
        let taken = try client.request("POST", "/api/accounts", headers: [("Content-Type", "application/json")],
                                       body: Array(#"{"user":"luk\u0435","password":"\#(Support.password)"}"#.utf8))
        #expect(taken.status == 409 && taken.text.contains("name_taken"))
        // A name nobody has still works, and luke still signs in as luke.
        #expect(try client.postJSON("lobby", #"{"user":"leia","text":"hi"}"#).status == 201)
        #expect(try !Support.signIn(client, "luke").isEmpty)
    }

    /// Raw TCP shows a chat message as `NAME:TEXT` and starts its own
    /// replies with `error:`, `auth:`, `who:`, `pong:`, `typing:` (and
    /// `system:`): a user with one of those names, in any case or a spelling
    /// that looks like it, would forge them (`error` saying `unauthorized`).
    /// No way in takes such a name; a name that only starts with one does.
    @Test func noNameForgesALineOfTheServersOwn() throws {
        let server = try TestServer()
        let client = server.client
        for name in ["error", "Auth", "WHO", "pong", "typing", "system", "\u{0435}rror", "syst\u{0435}m"] {
            let published = try client.postJSON("lobby", #"{"user":"\#(name)","text":"unauthorized"}"#)
            #expect(published.status == 422 && published.text.contains("reserved_user"), "HTTP \(name): \(published.status) \(published.text)")
            let line = try TestLineClient(port: server.tcpPort)
            try line.write("iam:\(name)\n")
            let answer = try line.readLine()
            #expect(answer.hasPrefix("error:") && answer.contains("is reserved for the server"), "iam:\(name): \(answer)")
            line.close()
            let registered = try client.request("POST", "/api/accounts", headers: [("Content-Type", "application/json")],
                                                body: Array(#"{"user":"\#(name)","password":"\#(Support.password)"}"#.utf8))
            #expect(registered.status == 422 && registered.text.contains("reserved_user"), "register \(name): \(registered.status)")
        }
        #expect(try client.postJSON("lobby", #"{"user":"errorist","text":"hi"}"#).status == 201)
        let line = try TestLineClient(port: server.tcpPort)
        try line.write("iam:whoever\nmsg:hi\n")
        #expect(try line.readLine() == "whoever has joined")
        #expect(try line.readLine() == "whoever:hi")
        line.close()
    }

    /// An account registered before its name was reserved (`who`) is
    /// refused at sign-in, 422 `reserved_user`, with the right password
    /// only: before, it was given a token every way in refused ('sub' not
    /// a valid user name). Made here by renaming an account in the file.
    @Test func anAccountUnderANameReservedSinceCannotSignIn() throws {
        let path = try TestStore.temporaryPath("reserved-since")
        defer { TestStore.remove(path) }
        do {
            let server = try TestServer(databasePath: path)
            _ = try Support.signUp(server.client, "whoever")
            server.stop()
        }
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "UPDATE account SET user = 'who', user_key = 'who' WHERE user = 'whoever'")
        }
        let server = try TestServer(databasePath: path)
        func signIn(_ password: String) throws -> TestResponse {
            try server.client.request("POST", "/api/sessions", headers: [("Content-Type", "application/json")],
                                      body: Array(#"{"user":"who","password":"\#(password)"}"#.utf8))
        }
        let refused = try signIn(Support.password)
        #expect(refused.status == 422 && refused.errorCode == "reserved_user", "\(refused.status) \(refused.text)")
        let wrong = try signIn("not the password at all")
        #expect(wrong.status == 401, "a wrong password is told nothing more: \(wrong.status) \(wrong.text)")
    }

    /// Clients that leave before their polls' hang-up watch is armed (at
    /// 0.3 s; the watch, at 1 s, then reports the hang-up that came before
    /// it) and after it (at about 2.5 s, once the slots are seen held).
    @Test(arguments: [false, true])
    func abandonedLongPollsFreeTheirConnectionsWithinSeconds(leavingAfterTheWatch: Bool) throws {
        let server = try TestServer(maxConnections: 20)
        var polls: [TestHTTPConnection] = []
        for _ in 0..<20 {
            let poll = try TestHTTPConnection(port: server.port)
            try poll.sendRequest("GET", "/api/rooms/lobby/messages?since=999999&wait=60")
            polls.append(poll)
        }
        if leavingAfterTheWatch {
            Thread.sleep(forTimeInterval: 0.5)
            // Every slot is held: a health check gets no answer (in 2 s).
            let held = try TestHTTPConnection(port: server.port, timeoutSeconds: 2)
            try held.sendRequest("GET", "/healthz")
            #expect((try? held.readResponse())?.status != 200)
            held.close()
        } else {
            Thread.sleep(forTimeInterval: 0.3)
        }
        for poll in polls { poll.close() }
        let started = Date()
        var answered = false
        while !answered, Date().timeIntervalSince(started) < 10 {
            answered = (try? server.client.get("/healthz"))?.status == 200
            if !answered { Thread.sleep(forTimeInterval: 0.1) }
        }
        #expect(answered)
        print("abandoned long polls: /healthz answered \(String(format: "%.2f", Date().timeIntervalSince(started))) s after 20 clients left \(leavingAfterTheWatch ? "after" : "before") the watch")
        // A poll whose client stays is still answered by a message.
        let waiting = try TestHTTPConnection(port: server.port)
        try waiting.sendRequest("GET", "/api/rooms/lobby/messages?since=0&wait=30")
        Thread.sleep(forTimeInterval: 0.2)
        let message = try server.client.publish(text: "for the one who stayed")
        #expect(try waiting.readResponse().page().messages.map(\.id) == [message.id])
    }

    @Test(arguments: [65, 200, 500, 1_000])
    func tooManyQueryParametersAreAnsweredAtOnce(count: Int) throws {
        let server = try TestServer()
        let query = (0..<count).map { "p\($0)=v\($0)" }.joined(separator: "&")
        let started = Date()
        let response = try server.client.get("/healthz?\(query)")
        #expect(response.status == 414 && response.text.contains("too_many_parameters"))
        #expect(Date().timeIntervalSince(started) < 5)  // not the connection's timeout
        #expect(try server.client.get("/healthz?" + (0..<64).map { "p\($0)=1" }.joined(separator: "&")).status == 200)
    }

    /// Bytes that are no UTF-8, escaped or sent as they are, in a path or a
    /// query: refused, where they were made U+FFFD (a guest `a�b` showed in
    /// a room's presence, a reaction `�` was stored).
    @Test func aPathOrQueryThatIsNoTextIsRefused() throws {
        let server = try TestServer()
        let client = server.client
        let said = try client.publish(text: "react to me").id
        for target in ["/api/rooms/lobby/messages?since=0&user=a%FFb", "/api/rooms/lobby/messages?since=0&%C0%AF=1",
                       "/api/rooms/lobby/messages/\(said)/reactions/%FF", "/api/rooms/lo%E2%82bby/presence"] {
            let response = try client.get(target)
            #expect(response.status == 400 && response.errorCode == "invalid_utf8", "\(target): \(response.status) \(response.text)")
        }
        let raw = try TestHTTPConnection(port: server.port)
        try raw.send(Array("GET /api/rooms/lobby/messages?since=0&user=r".utf8) + [0xFF] + Array("aw HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        let answer = try raw.readResponse()
        #expect(answer.status == 400 && answer.errorCode == "invalid_utf8", "\(answer.status) \(answer.text)")
        // A NUL in the path: libmicrohttpd's path ends there (a C string), a second reading of it.
        // `/chat.js%00.png` was chat.js; `/api/rooms/lobby/messages%00/x` the room's messages.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Public").path
        let files: StaticFiles = try #require(StaticFiles(root: root))  // typed: the server takes an optional, which made the require redundant
        let pages = try TestServer(publicFiles: files)
        for target in ["/chat.js%00.png", "/index.html%00", "/api/rooms/lobby/messages%00/x?since=0", "/api/rooms/lob%00by/presence"] {
            let response = try pages.client.get(target)
            #expect(response.status == 400 && response.errorCode == "invalid_utf8", "\(target): \(response.status) \(response.text)")
        }
        #expect(try pages.client.get("/chat.js").status == 200)
        #expect(try pages.client.get("/api/rooms/lobby/messages?since=0&x=%00").status == 200, "a NUL in the query is a value's")
        // Escaped text is still text, and nobody was seen in the room.
        #expect(try client.get("/api/rooms/lobby/messages?since=0&user=l%C3%A9a").status == 200)
        #expect(try client.get("/api/rooms/lobby/presence").text.contains("l\u{E9}a"))
        #expect(try !client.get("/api/rooms/lobby/presence").text.contains("\u{FFFD}"))
    }

    @Test func pagesForbidFramingSniffingAndAnythingFromElsewhere() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Public").path
        let files: StaticFiles = try #require(StaticFiles(root: root))  // the test means nothing without them
        let server = try TestServer(publicFiles: files)
        for path in ["/", "/admin", "/compare", "/chat.js", "/style.css"] {
            let response = try server.client.get(path)
            #expect(response.status == 200, "\(path)")
            let policy = response.header("Content-Security-Policy") ?? ""
            #expect(policy.contains("default-src 'self'") && policy.contains("frame-ancestors 'none'"), "\(path): \(policy)")
            #expect(response.header("X-Frame-Options") == "DENY", "\(path)")
            #expect(response.header("X-Content-Type-Options") == "nosniff", "\(path)")
        }
    }

    /// What held, kept holding: no file outside Public/ is ever served, and
    /// JSON nested past the limit is refused before it costs anything.
    @Test func traversalAndDeepJSONAreRefused() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Public").path
        let files: StaticFiles = try #require(StaticFiles(root: root))  // the test means nothing without them
        let server = try TestServer(publicFiles: files)
        for path in ["/../Package.swift", "/%2e%2e/Package.swift", "/..%2FPackage.swift", "/.%2e/README.md", "/.git/config",
                     "/%2E%2E/%2E%2E/etc/passwd", "/chat.js/../../Package.swift", "/.hidden"] {
            let response = try server.client.get(path)
            #expect([400, 404].contains(response.status), "\(path): \(response.status)")
            #expect(!response.text.contains("PackageDescription") && !response.text.contains("root:"), "\(path)")
        }
        let deep = #"{"user":"luke","text":"hi","x":"# + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "}"
        let refused = try server.client.postJSON("lobby", deep)
        #expect(refused.status == 400 || refused.status == 413, "\(refused.status)")
        #expect(try server.client.get("/healthz").status == 200)
    }

    @Test func noPublicRoomInTheConversationsNameSpaceInAnyCase() throws {
        let server = try TestServer()
        let client = server.client
        for room in ["C.1", "c.1", "C.x"] {
            let guest = try client.postForm(room, user: "mallory", text: "hi")
            #expect(guest.status == 401, "\(room): \(guest.status)")
        }
        let token = try Support.signUp(client, "mallory")
        let member = try Support.publish(client, token: token, text: "hi", room: "C.1")
        #expect(member.status == 403 && member.text.contains("not_a_member"))
        let line = try TestLineClient(port: server.tcpPort)
        try line.write("join:C.1\n")
        #expect(try line.readLine().hasPrefix("error:"))
        #expect(try !client.get("/api/rooms").text.contains("C.1"))
    }

    @Test func aPageOnAnotherNameCannotActHereDNSRebinding() throws {
        let server = try TestServer()
        let port = server.port
        let forged = [("Host", "evil.example:\(port)"), ("Origin", "http://evil.example:\(port)")]
        // Bound to 127.0.0.1: a Host that is not the server's is refused outright.
        let upgrade = try TestWebSocketClient(port: port, path: "/api/ws", extraHeaders: forged)
        #expect(upgrade.status == 421)
        let publish = try server.client.request("POST", "/api/rooms/lobby/messages",
                                                headers: forged + [("Content-Type", "application/json")],
                                                body: Array(#"{"user":"mallory","text":"rebound"}"#.utf8))
        #expect(publish.status == 421)
        // The server's own names still work, with their own Origin.
        for host in ["127.0.0.1:\(port)", "localhost:\(port)"] {
            let own = try TestWebSocketClient(port: port, path: "/api/ws", extraHeaders: [("Host", host), ("Origin", "http://\(host)")])
            #expect(own.status == 101, "\(host)")
        }
        // An Origin that names the Host but is another site's is not ours either.
        let other = try TestWebSocketClient(port: port, path: "/api/ws",
                                            extraHeaders: [("Host", "127.0.0.1:\(port)"), ("Origin", "http://evil.example:\(port)")])
        #expect(other.status == 403)
    }

    @Test func withAPublicURLOnlyItsNameAndAddressesAreTheServers() throws {
        let server = try TestServer(publicURL: "https://chat.example")
        let port = server.port
        let named = try TestWebSocketClient(port: port, path: "/api/ws",
                                            extraHeaders: [("Host", "chat.example"), ("Origin", "https://chat.example")])
        #expect(named.status == 101)
        let rebound = try TestWebSocketClient(port: port, path: "/api/ws",
                                              extraHeaders: [("Host", "evil.example"), ("Origin", "https://evil.example")])
        #expect(rebound.status == 421)
        #expect(try server.client.get("/healthz").status == 200)  // by address: curl, health checks
    }

    @Test func passwordGuessingIsThrottledPerAccountAndTheRightPasswordWorksOnceItPasses() throws {
        let server = try TestServer(auth: TestServer.auth(signInsPerAccount: 100, signUpBurst: 100))
        let client = server.client
        _ = try Support.signUp(client, "leia")
        func attempt(_ user: String, _ password: String) throws -> TestResponse {
            try client.request("POST", "/api/sessions", headers: [("Content-Type", "application/json")],
                               body: Array(#"{"user":"\#(user)","password":"\#(password)"}"#.utf8))
        }
        var statuses: [Int] = []
        for _ in 0..<104 { statuses.append(try attempt("leia", "wrong password").status) }
        #expect(statuses.filter { $0 == 401 }.count <= 100 && statuses.suffix(4).allSatisfy { $0 == 429 })
        let refused = try attempt("leia", Support.password)
        #expect(refused.status == 429)
        let wait = try #require(refused.header("Retry-After").flatMap(Int.init))
        #expect(wait >= 1 && wait <= 6)
        Thread.sleep(forTimeInterval: Double(wait) + 0.2)
        #expect(try attempt("leia", Support.password).status == 201)
        // Another account from the same address is not locked by leia's.
        _ = try Support.signUp(client, "han")
        #expect(try attempt("han", Support.password).status == 201)
    }

    @Test func signUpsAreThrottledPerAddressButNotForTheAdmin() throws {
        let server = try TestServer(auth: TestServer.auth(signUpBurst: 5))
        let client = server.client
        func register(_ user: String, admin: Bool = false) throws -> TestResponse {
            try client.request("POST", "/api/accounts",
                               headers: [("Content-Type", "application/json")] + (admin ? Support.bearer(TestServer.adminToken) : []),
                               body: Array(#"{"user":"\#(user)","password":"\#(Support.password)"}"#.utf8))
        }
        let statuses = try (0..<8).map { try register("user\($0)").status }
        #expect(statuses == [201, 201, 201, 201, 201, 429, 429, 429])
        #expect(try register("user5").header("Retry-After") != nil)
        #expect(try register("byadmin", admin: true).status == 201)
    }

    @Test func newRoomsAreCountedPerClientAndHopsLeaveNoTrace() throws {
        let server = try TestServer(auth: TestServer.auth(newRoomBurst: 10))
        let client = server.client
        _ = try client.publish("lobby", user: "host", text: "the lobby exists")
        let line = try TestLineClient(port: server.tcpPort)
        try line.write("iam:flood\n")
        var refused = 0
        for index in 0..<50 {
            try line.write("join:flood\(index)\n")
            try line.write("ping:\(index)\n")
            // Each join is answered (an error) or not (moved) before its ping's pong.
            let answer = try line.readUntil { $0.hasPrefix("pong:") || $0.hasPrefix("error:") }
            if answer.hasPrefix("error:") {
                #expect(answer == "error:rate_limited")
                refused += 1
                _ = try line.readUntil { $0.hasPrefix("pong:") }
            }
        }
        #expect(refused >= 39 && refused <= 41)
        // A room that exists costs nothing.
        try line.write("join:lobby\n")
        try line.write("ping:last\n")
        #expect(try line.readUntil { $0.hasPrefix("pong:") || $0.hasPrefix("error:") } == "pong:last")
        server.server.bus.waitForQueuedCommits(seconds: 5)
        // The rooms it hopped through, where nothing was said, kept nothing: not the room, not a join, not a leave.
        let names = try #require(try client.get("/api/rooms").json()["rooms"] as? [[String: Any]]).compactMap { $0["name"] as? String }
        #expect(names == ["lobby"])
        let stored = try client.get("/api/rooms/lobby/messages?since=0").page().messages
        #expect(stored.map(\.kind) == [.message, .join, .leave, .join])  // in, out to the first hop, back
        let hopped = try client.get("/api/rooms/flood3/messages?since=0").page().messages
        #expect(hopped.isEmpty)
        // A room where someone spoke keeps its joins and leaves (a signed-in user: a bucket of its own).
        let token = try Support.signUp(client, "speaker")
        let speaker = try TestLineClient(port: server.tcpPort)
        try speaker.write("auth:\(token)\njoin:kept\nmsg:something said\njoin:lobby\nping:back\n")
        _ = try speaker.readUntil { $0 == "pong:back" }
        server.server.bus.waitForQueuedCommits(seconds: 5)
        #expect(try client.get("/api/rooms/kept/messages?since=0").page().messages.map(\.kind) == [.join, .message, .leave])
    }

    @Test func roomsArePaged() throws {
        let server = try TestServer()
        let client = server.client
        for index in 0..<25 { _ = try client.publish(String(format: "room%02d", index), user: "host", text: "hi") }
        var names: [String] = []
        var after = ""
        repeat {
            let page = try client.get("/api/rooms?limit=4&after=\(after)").json()
            let rooms = try #require(page["rooms"] as? [[String: Any]])
            #expect(rooms.count <= 4)
            names += rooms.compactMap { $0["name"] as? String }
            after = page["next"] as? String ?? ""
        } while !after.isEmpty
        #expect(names == (0..<25).map { String(format: "room%02d", $0) })
        let refused = try client.get("/api/rooms?limit=0")
        #expect(refused.status == 400)
        #expect((try refused.json()["error"] as? [String: Any])?["message"] as? String
                == "Parameter 'limit' must be a whole number from 1 to 1000.")
        #expect(try client.get("/api/rooms?limit=1001").status == 400)
    }
}
