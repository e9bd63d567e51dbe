import Foundation
import Logging
import Testing
import MicroHTTPD
import SwitchboardCore
import SwitchboardTesting
@testable import SwitchboardHTTP

/// Routing as a value in, a decision out: no daemon, no socket.
@Suite("HTTP router")
struct HTTPRouterTests {
    let router: HTTPRouter
    let bus: MessageBus
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
        var configuration = HTTPServerConfiguration(maxBodyBytes: 16, adminToken: "secret")
        configuration.allowedOrigins = origins
        let access = AccessControl(mode: mode, verifier: StaticTokenVerifier(Self.tokens))
        let services = HTTPServices(configuration: configuration, bus: bus,
                                    presence: presence, connections: ConnectionDirectory(presence: presence), metrics: nil,
                                    upgrades: nil, cluster: nil, scheduler: DeadlineScheduler(), access: access, accounts: nil,
                                    conversationStore: nil, notices: NoticeBoard(), logger: Logger(label: "test"))
        router = HTTPRouter(services: services, admin: AdminEndpoints(services: services))
    }

    /// The answer's status, its error code if any, and its headers.
    func answer(_ request: HTTPRequest) throws -> (status: Int, code: String?, headers: [String: String])? {
        guard case .respond(let response) = router.decide(request) else { return nil }
        var code: String?
        if case .bytes(let body) = response.body,
           let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] {
            code = (object["error"] as? [String: Any])?["code"] as? String
        }
        return (response.status, code, Dictionary(response.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a }))
    }

    @Test func refusalsAreDecidedWithoutASocket() throws {
        #expect(try answer(HTTPRequest(method: "GET", path: "/nowhere"))?.code == "not_found")
        let wrongMethod = try #require(try answer(HTTPRequest(method: "DELETE", path: "/api/rooms/lobby/messages")))
        #expect(wrongMethod.status == 405 && wrongMethod.headers["Allow"] == "GET, POST")
        let noToken = try #require(try answer(HTTPRequest(method: "GET", path: "/api/admin/stats")))
        #expect(noToken.status == 401 && noToken.headers["WWW-Authenticate"] == "Bearer")
        // The admin's figures are read from the store: through the exchange, suspended, never on the worker.
        guard case .needsExchange(.adminStats, .admin) = router.decide(HTTPRequest(method: "GET", path: "/api/admin/stats",
                                                                                    headers: ["authorization": "Bearer secret"])) else {
            Issue.record("the admin's stats read the store: they need the exchange")
            return
        }
        #expect(try answer(HTTPRequest(method: "POST", path: "/api/rooms/lobby/messages", bodyTooLarge: true))?.status == 413)
        #expect(try answer(HTTPRequest(method: "GET", path: "/api/rooms/bad%room/presence"))?.code == "invalid_room")
    }

    @Test func readsAreAnsweredAndWhatWaitsIsHandedToTheExchange() throws {
        #expect(try answer(HTTPRequest(method: "GET", path: "/api/rooms/lobby/presence"))?.status == 200)
        // Whatever reads the store is handed over, to wait suspended (SPEC: nothing waits on a stalled store).
        for path in ["/healthz", "/api/rooms", "/api/rooms/lobby/messages/1"] {
            guard case .needsExchange = router.decide(HTTPRequest(method: "GET", path: path)) else {
                Issue.record("\(path) reads the store: it needs the exchange")
                continue
            }
        }
        guard case .needsExchange(.publish(room: "lobby"), .guest) = router.decide(HTTPRequest(method: "POST", path: "/api/rooms/lobby/messages")) else {
            Issue.record("a publish waits for the store: it needs the exchange")
            return
        }
        guard case .needsExchange(.roomEvents(room: "lobby"), .guest) = router.decide(HTTPRequest(method: "GET", path: "/api/rooms/lobby/events")) else {
            Issue.record("a stream needs the exchange")
            return
        }
    }

    /// Who asked, as the one resolver decides, whichever way the token came.
    func identity(_ request: HTTPRequest) -> Identity? {
        if case .needsExchange(_, let identity) = router.decide(request) { return identity }
        return nil
    }

    @Test func aTokenIsReadFromTheHeaderTheQueryOrTheCookie() throws {
        let luke = Identity.user(Self.tokens["luke-token"]!)
        let events = "/api/rooms/lobby/events"
        #expect(identity(HTTPRequest(method: "GET", path: events, headers: ["Authorization": "Bearer luke-token"])) == luke)
        #expect(identity(HTTPRequest(method: "GET", path: events, query: ["access_token": "luke-token"])) == luke)
        #expect(identity(HTTPRequest(method: "GET", path: events, headers: ["Cookie": "a=b; switchboard_session=luke-token"])) == luke)
        #expect(identity(HTTPRequest(method: "GET", path: events, headers: ["Authorization": "Bearer secret"])) == .admin)
        #expect(identity(HTTPRequest(method: "GET", path: events)) == .guest)
    }

    @Test func aBadTokenIsRefusedNeverTakenForAGuestAndAStaleCookieIsCleared() throws {
        let header = try #require(try answer(HTTPRequest(method: "GET", path: "/api/rooms/lobby/events",
                                                         headers: ["Authorization": "Bearer forged"])))
        #expect(header.status == 401 && header.code == "invalid_token")
        #expect(header.headers["WWW-Authenticate"] == #"Bearer error="invalid_token""#)
        let cookie = try #require(try answer(HTTPRequest(method: "GET", path: "/api/rooms/lobby/messages",
                                                         headers: ["Cookie": "switchboard_session=forged"])))
        #expect(cookie.status == 401 && cookie.headers["Set-Cookie"]?.hasPrefix("switchboard_session=; Max-Age=0") == true)
        // Signing in never looks at a stale cookie.
        guard case .needsExchange(.sessions, .guest) = router.decide(HTTPRequest(method: "POST", path: "/api/sessions",
                                                                                 headers: ["Cookie": "switchboard_session=forged"])) else {
            Issue.record("sign-in must not be refused for a stale cookie")
            return
        }
    }

    @Test func aTokensRoomsLimitWhatItReads() throws {
        let team = ["Authorization": "Bearer team-token"]
        #expect(try answer(HTTPRequest(method: "GET", path: "/api/rooms/lobby/presence", headers: team))?.code == "forbidden")
        #expect(try answer(HTTPRequest(method: "GET", path: "/api/rooms/team-red/presence", headers: team))?.status == 200)
        #expect(try answer(HTTPRequest(method: "GET", path: "/api/rooms/lobby/events", headers: team))?.code == "forbidden")
        // Who it is (and its unread count) is answered off the worker, for any token.
        guard case .needsExchange(.me, .user) = router.decide(HTTPRequest(method: "GET", path: "/api/me", headers: team)) else {
            Issue.record("/api/me must be answered for a limited token")
            return
        }
        #expect(try answer(HTTPRequest(method: "GET", path: "/api/me"))?.status == 401)
    }

    @Test func requiredModeRefusesGuestsButNotHealthPagesOrSignIn() throws {
        let router = try HTTPRouterTests(mode: .required)
        let refused = try #require(try router.answer(HTTPRequest(method: "GET", path: "/api/rooms")))
        #expect(refused.status == 401 && refused.code == "unauthorized" && refused.headers["WWW-Authenticate"] == "Bearer")
        #expect(try router.answer(HTTPRequest(method: "GET", path: "/api/rooms/lobby/presence"))?.status == 401)
        guard case .needsExchange(.health, _) = router.router.decide(HTTPRequest(method: "GET", path: "/healthz")) else {
            Issue.record("/healthz is for anyone, and asks the store off the worker")
            return
        }
        #expect(try router.answer(HTTPRequest(method: "GET", path: "/metrics"))?.status != 401)
        #expect(router.identity(HTTPRequest(method: "POST", path: "/api/sessions")) == .guest)
        #expect(router.identity(HTTPRequest(method: "POST", path: "/api/accounts")) == .guest)
        guard case .needsExchange(.rooms, let identity) = router.router.decide(HTTPRequest(method: "GET", path: "/api/rooms",
                                                                                           headers: ["Authorization": "Bearer luke-token"])),
              identity.user == "luke" else {
            Issue.record("a signed-in user may list the rooms")
            return
        }
    }

    @Test func foreignOriginsMayNotActWithTheCookieAndAllowedOnesGetCORS() throws {
        let router = try HTTPRouterTests(mode: .open, origins: ["https://app.example"])
        let cookie = "switchboard_session=luke-token"
        let foreign = try #require(try router.answer(HTTPRequest(method: "POST", path: "/api/rooms/lobby/messages",
                                                                 headers: ["Cookie": cookie, "Origin": "https://evil.example", "Host": "127.0.0.1:8080"])))
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
        let preflight = try #require(try router.answer(HTTPRequest(method: "OPTIONS", path: "/api/rooms/lobby/messages",
                                                                   headers: ["Origin": "https://app.example", "Host": "127.0.0.1:8080"])))
        #expect(preflight.status == 204 && preflight.headers["Access-Control-Allow-Origin"] == "https://app.example")
        #expect(preflight.headers["Access-Control-Allow-Headers"]?.contains("Authorization") == true)
        let other = try #require(try router.answer(HTTPRequest(method: "OPTIONS", path: "/api/rooms/lobby/messages",
                                                               headers: ["Origin": "https://evil.example"])))
        #expect(other.status == 204 && other.headers["Access-Control-Allow-Origin"] == nil)
    }
}
