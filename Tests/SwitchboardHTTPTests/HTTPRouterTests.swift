import Foundation
import Logging
import Synchronization
import Testing
import MicroHTTPD
import SwitchboardCore
import SwitchboardTesting
@testable import SwitchboardHTTP

/// Routing with no daemon and no socket: whole requests through the
/// router's layers and routes (SwitchboardTesting's router mode), and the
/// layers' decision for who asked.
@Suite("HTTP router")
struct HTTPRouterTests {
    let application: HTTPApplication
    let client: RouterTestClient
    let bus: MessageBus
    let scheduler = DeadlineScheduler()
    static let far: Int64 = 4_000_000_000_000
    static let tokens = [
        "luke-token": TokenClaims(user: "luke", expires: far, revocationKey: "luke"),
        "team-token": TokenClaims(user: "leia", expires: far, rooms: RoomGrant(["team-*"]), revocationKey: "leia"),
    ]

    init() throws {
        try self.init(mode: .open)
    }

    init(mode: AccessMode, origins: [String] = []) throws {
        bus = try MessageBus(store: InMemoryMessageStore())
        let presence = Presence(bus: bus)
        var configuration = HTTPServerConfiguration(maxBodyBytes: 64, adminToken: "secret")
        configuration.allowedOrigins = origins
        let access = AccessControl(mode: mode, verifier: StaticTokenVerifier(Self.tokens))
        application = HTTPApplication(configuration: configuration, bus: bus, presence: presence,
                                      connections: ConnectionDirectory(presence: presence), scheduler: scheduler,
                                      access: access, accounts: nil, logger: Logger(label: "test"))
        client = RouterTestClient(application: application)
    }

    /// The answer: status, error code, headers.
    func answer(_ method: String, _ target: String, headers: [String: String] = [:], body: [UInt8] = []) async throws
        -> (status: Int, code: String?, headers: [String: String])
    {
        let response = try await client.send(method, target, headers: headers, body: body)
        return (response.status, response.errorCode,
                Dictionary(response.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a }))
    }

    /// Who asked, as the layers decided before the route ran (nil: refused or not a route).
    func identity(_ request: HTTPRequest) -> Identity? {
        if case .route(_, _, let identity) = application.router.decide(request) { return identity }
        return nil
    }

    @Test func refusalsAreDecidedWithoutASocket() async throws {
        #expect(try await answer("GET", "/nowhere").code == "not_found")
        let wrongMethod = try await answer("DELETE", "/api/rooms/lobby/messages")
        #expect(wrongMethod.status == 405 && wrongMethod.headers["Allow"] == "GET, POST")
        let noToken = try await answer("GET", "/api/admin/stats")
        #expect(noToken.status == 401 && noToken.headers["WWW-Authenticate"] == "Bearer")
        #expect(try await answer("GET", "/api/admin/stats", headers: ["authorization": "Bearer secret"]).status == 200)
        #expect(try await answer("POST", "/api/rooms/lobby/messages", body: Array(repeating: 0x61, count: 65)).status == 413)
        #expect(try await answer("GET", "/api/rooms/bad%25room/presence").code == "invalid_room")
        // An admin route's room is not even read without the token.
        #expect(try await answer("POST", "/api/admin/rooms/bad%25room/system").status == 401)
    }

    /// A signed-in user's route (an upload, `/api/me`, a push subscription,
    /// a conversation) refuses a guest and the admin's token alike, saying
    /// that an account is needed (it had spoken of conversations on every one).
    @Test func aSignedInRouteSaysAnAccountIsNeeded() async throws {
        for (method, path) in [("GET", "/api/me"), ("POST", "/api/push/subscriptions"), ("GET", "/api/conversations")] {
            for headers in [[:], ["Authorization": "Bearer secret"]] {
                let refused = try await client.send(method, path, headers: headers)
                #expect(refused.status == 401 && refused.errorCode == "unauthorized", "\(method) \(path)")
                let message = try #require((refused.json?["error"] as? [String: Any])?["message"] as? String)
                #expect(message.contains("signed-in users") && !message.contains("Conversations"), "\(method) \(path): \(message)")
            }
        }
    }

    @Test func readsAndPublishesAreAnsweredThroughTheRouter() async throws {
        #expect(try await answer("GET", "/healthz").status == 200)
        let published = try await client.send("POST", "/api/rooms/lobby/messages", json: #"{"user":"a","text":"hi"}"#)
        #expect(published.status == 201)
        let id = try #require(published.json?["id"] as? Int)
        #expect(try await answer("GET", "/api/rooms/lobby/messages/\(id)").status == 200)
        #expect(try await answer("GET", "/api/rooms/lobby/messages/\(id + 1)").code == "no_such_message")
        let poll = try await client.send("GET", "/api/rooms/lobby/messages?since=0")
        #expect((poll.json?["messages"] as? [[String: Any]])?.map { $0["text"] as? String } == ["hi"])
        let rooms = try await client.send("GET", "/api/rooms")
        #expect((rooms.json?["rooms"] as? [[String: Any]])?.first?["name"] as? String == "lobby",
                "\(rooms.status) \(String(decoding: rooms.body, as: UTF8.self))")
        // A stream answers with its first events, read until it waits.
        let stream = try await client.send("GET", "/api/rooms/lobby/events?since=0")
        #expect(stream.status == 200 && String(decoding: stream.body, as: UTF8.self).contains("id: \(id)"))
        #expect(try await answer("GET", "/api/me").status == 401)
    }

    /// A long poll's deadline is on the scheduler while it waits, and leaves
    /// it when the poll is answered: before, every answered poll stayed in
    /// the heap (and kept its subscriber's memory) until its `wait` ran out.
    @Test func anAnsweredLongPollLeavesTheDeadlinesAtOnce() async throws {
        let client = client
        // Generous bounds: a full parallel run can keep the task from starting for seconds.
        // What became of the poll, for the message should it not park (seen once in a full run, 2026-12-03: not
        // parked within 60 s; whether it was answered or never reached the router was not known).
        let outcome = Mutex<String>("not answered")
        let poll = Task {
            let response = try await client.send("GET", "/api/rooms/lobby/messages?since=0&wait=30", timeout: 90)
            outcome.withLock { $0 = "answered \(response.status) \(String(decoding: response.body.prefix(200), as: UTF8.self))" }
            return response
        }
        // Bounded by this loop's own turns, not the clock: synchronous tests run on the cooperative
        // pool (two threads here), and a few long ones can starve both this loop and the poll's task
        // for a minute, which a wall-clock bound took for a poll that did not park.
        var turns = 0
        while bus.parkedCount == 0, turns < 12_000 {
            turns += 1
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        #expect(bus.parkedCount == 1 && scheduler.pending == 1,
                "parked \(bus.parkedCount), deadlines \(scheduler.pending), the poll \(outcome.withLock { $0 })")
        #expect(try await client.send("POST", "/api/rooms/lobby/messages", json: #"{"user":"a","text":"hi"}"#).status == 201)
        let answer = try await poll.value
        #expect((answer.json?["messages"] as? [[String: Any]])?.map { $0["text"] as? String } == ["hi"])
        #expect(scheduler.pending == 0 && bus.parkedCount == 0)
    }

    @Test func aTokenIsReadFromTheHeaderTheQueryOrTheCookie() throws {
        let luke = Identity.user(Self.tokens["luke-token"]!)
        let events = "/api/rooms/lobby/events"
        #expect(identity(HTTPRequest(method: "GET", path: events, headers: ["Authorization": "Bearer luke-token"])) == luke)
        #expect(identity(HTTPRequest(method: "GET", path: events, headers: ["Authorization": "Bearer   luke-token  "])) == luke)
        #expect(identity(HTTPRequest(method: "GET", path: events, query: ["access_token": "luke-token"])) == luke)
        #expect(identity(HTTPRequest(method: "GET", path: events, headers: ["Cookie": "a=b; switchboard_session=luke-token"])) == luke)
        #expect(identity(HTTPRequest(method: "GET", path: events, headers: ["Authorization": "Bearer secret"])) == .admin)
        #expect(identity(HTTPRequest(method: "GET", path: events)) == .guest)
    }

    @Test func theBearerSchemeIsReadInAnyCaseAndTheAdminTokenOnlyWhole() throws {
        let luke = Identity.user(Self.tokens["luke-token"]!)
        func who(_ authorization: String) -> Identity? {
            identity(HTTPRequest(method: "GET", path: "/api/rooms/lobby/events", headers: ["Authorization": authorization]))
        }
        #expect(who("bearer luke-token") == luke && who("BEARER luke-token") == luke)
        #expect(who("bEaReR  secret ") == .admin)
        // Neither a token nor the admin's: refused, never a guest.
        for near in ["Bearer secreT", "Bearer secre", "Bearer secrets", "Bearer luke-token secret", "Bearer \u{301}luke-token",
                     "Bearer    ", "Bearer "] {
            #expect(who(near) == nil, "\(near.debugDescription)")
        }
        // Another scheme presents nothing (an empty Bearer is a bad token, above).
        for nothing in ["Basic luke-token", "Bearer", "Bearerluke-token", "Bearez luke-token"] {
            #expect(who(nothing) == .guest)
        }
        #expect(AdminToken.matches("secret", token: "secret") && AdminToken.matches("sécret", token: "sécret"))
        #expect(!AdminToken.matches("secres", token: "secret") && !AdminToken.matches("", token: ""))
        #expect(!AdminToken.matches("secret\u{0}", token: "secret") && !AdminToken.matches("s", token: "secret"))
    }

    @Test func aBadTokenIsRefusedNeverTakenForAGuestAndAStaleCookieIsCleared() async throws {
        let header = try await answer("GET", "/api/rooms/lobby/events", headers: ["Authorization": "Bearer forged"])
        #expect(header.status == 401 && header.code == "invalid_token")
        #expect(header.headers["WWW-Authenticate"] == #"Bearer error="invalid_token""#)
        let cookie = try await answer("GET", "/api/rooms/lobby/messages", headers: ["Cookie": "switchboard_session=forged"])
        #expect(cookie.status == 401 && cookie.headers["Set-Cookie"]?.hasPrefix("switchboard_session=; Max-Age=0") == true)
        // Signing in never looks at a stale cookie.
        #expect(identity(HTTPRequest(method: "POST", path: "/api/sessions", headers: ["Cookie": "switchboard_session=forged"])) == .guest)
    }

    @Test func aTokensRoomsLimitWhatItReads() async throws {
        let team = ["Authorization": "Bearer team-token"]
        #expect(try await answer("GET", "/api/rooms/lobby/presence", headers: team).code == "forbidden")
        #expect(try await answer("GET", "/api/rooms/team-red/presence", headers: team).status == 200)
        #expect(try await answer("GET", "/api/rooms/lobby/events", headers: team).code == "forbidden")
        // Who it is is asked of any token.
        #expect(identity(HTTPRequest(method: "GET", path: "/api/me", headers: team))?.user == "leia")
    }

    @Test func requiredModeRefusesGuestsButNotHealthPagesOrSignIn() async throws {
        let router = try HTTPRouterTests(mode: .required)
        let refused = try await router.answer("GET", "/api/rooms")
        #expect(refused.status == 401 && refused.code == "unauthorized" && refused.headers["WWW-Authenticate"] == "Bearer")
        #expect(try await router.answer("GET", "/api/rooms/lobby/presence").status == 401)
        #expect(try await router.answer("GET", "/healthz").status == 200)
        #expect(try await router.answer("GET", "/metrics").status != 401)
        #expect(router.identity(HTTPRequest(method: "POST", path: "/api/sessions")) == .guest)
        #expect(router.identity(HTTPRequest(method: "POST", path: "/api/accounts")) == .guest)
        #expect(try await router.answer("GET", "/api/rooms", headers: ["Authorization": "Bearer luke-token"]).status == 200)
    }

    @Test func foreignOriginsMayNotActWithTheCookieAndAllowedOnesGetCORS() async throws {
        let router = try HTTPRouterTests(mode: .open, origins: ["https://app.example"])
        let cookie = "switchboard_session=luke-token"
        let foreign = try await router.answer("POST", "/api/rooms/lobby/messages",
                                              headers: ["Cookie": cookie, "Origin": "https://evil.example", "Host": "127.0.0.1:8080"])
        #expect(foreign.status == 403 && foreign.code == "origin_not_allowed")
        // Our own page, an allowed origin, or no Origin at all (curl) may.
        #expect(router.identity(HTTPRequest(method: "POST", path: "/api/rooms/lobby/messages",
                                            headers: ["Cookie": cookie, "Origin": "http://127.0.0.1:8080", "Host": "127.0.0.1:8080"])) != nil)
        #expect(router.identity(HTTPRequest(method: "POST", path: "/api/rooms/lobby/messages",
                                            headers: ["Cookie": cookie, "Origin": "https://app.example", "Host": "127.0.0.1:8080"])) != nil)
        #expect(router.identity(HTTPRequest(method: "POST", path: "/api/rooms/lobby/messages", headers: ["Cookie": cookie])) != nil)
        // A Bearer token is not ambient: no origin check.
        #expect(router.identity(HTTPRequest(method: "POST", path: "/api/rooms/lobby/messages",
                                            headers: ["Authorization": "Bearer luke-token", "Origin": "https://evil.example"])) != nil)
        let preflight = try await router.answer("OPTIONS", "/api/rooms/lobby/messages",
                                                headers: ["Origin": "https://app.example", "Host": "127.0.0.1:8080"])
        #expect(preflight.status == 204 && preflight.headers["Access-Control-Allow-Origin"] == "https://app.example")
        #expect(preflight.headers["Access-Control-Allow-Headers"]?.contains("Authorization") == true)
        let other = try await router.answer("OPTIONS", "/api/rooms/lobby/messages", headers: ["Origin": "https://evil.example"])
        #expect(other.status == 204 && other.headers["Access-Control-Allow-Origin"] == nil)
    }

    /// A browser refuses a preflight whose `Access-Control-Allow-Origin` it
    /// reads twice, and sends no method or header the preflight leaves out:
    /// an edit (PATCH), a reaction (PUT), exactly once (Idempotency-Key).
    @Test func aPreflightAllowsEveryMethodAndHeaderOfTheAPIOnce() async throws {
        let router = try HTTPRouterTests(mode: .open, origins: ["https://app.example"])
        let preflight = try await router.client.send("OPTIONS", "/api/rooms/lobby/messages/1",
                                                     headers: ["Origin": "https://app.example", "Host": "127.0.0.1:8080",
                                                               "Access-Control-Request-Method": "PATCH"])
        let values = { (name: String) in preflight.headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value) }
        #expect(preflight.status == 204 && values("Access-Control-Allow-Origin") == ["https://app.example"])
        #expect(values("Vary") == ["Origin"] && values("Access-Control-Allow-Methods").count == 1)
        let methods = Set((values("Access-Control-Allow-Methods").first ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(Set(RouteTable.api.routes.map(\.method)).isSubset(of: methods), "\(methods)")
        let headers = (values("Access-Control-Allow-Headers").first ?? "").lowercased()
        for header in ["authorization", "content-type", "idempotency-key", "last-event-id", "range", "if-none-match"] {
            #expect(headers.contains(header), "\(header)")
        }
    }
}
