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

    init() throws {
        bus = try MessageBus(store: InMemoryMessageStore())
        let presence = Presence(bus: bus)
        let services = HTTPServices(configuration: HTTPServerConfiguration(maxBodyBytes: 16, adminToken: "secret"), bus: bus,
                                    presence: presence, connections: ConnectionDirectory(presence: presence), metrics: nil,
                                    upgrades: nil, cluster: nil, scheduler: DeadlineScheduler(), logger: Logger(label: "test"))
        router = HTTPRouter(services: services, admin: AdminEndpoints(services: services))
    }

    /// The answer's status, its error code if any, and its headers.
    func answer(_ request: HTTPRequest) throws -> (status: Int, code: String?, headers: [String: String])? {
        guard case .respond(let response) = try router.decide(request) else { return nil }
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
        #expect(try answer(HTTPRequest(method: "GET", path: "/api/admin/stats", headers: ["authorization": "Bearer secret"]))?.status == 200)
        #expect(try answer(HTTPRequest(method: "POST", path: "/api/rooms/lobby/messages", bodyTooLarge: true))?.status == 413)
        #expect(throws: SwitchboardError.self) { try router.decide(HTTPRequest(method: "GET", path: "/api/rooms/bad%room/presence")) }
    }

    @Test func readsAreAnsweredAndWhatWaitsIsHandedToTheExchange() throws {
        #expect(try answer(HTTPRequest(method: "GET", path: "/healthz"))?.status == 200)
        let stored = try bus.publishAndWait(MessageDraft(room: "lobby", user: "luke", text: "hi", kind: .message))
        #expect(try answer(HTTPRequest(method: "GET", path: "/api/rooms/lobby/messages/\(stored.id)"))?.status == 200)
        #expect(throws: SwitchboardError.self) { try router.decide(HTTPRequest(method: "GET", path: "/api/rooms/lobby/messages/\(stored.id + 1)")) }
        guard case .needsExchange(.publish(room: "lobby")) = try router.decide(HTTPRequest(method: "POST", path: "/api/rooms/lobby/messages")) else {
            Issue.record("a publish waits for the store: it needs the exchange")
            return
        }
        guard case .needsExchange(.roomEvents(room: "lobby")) = try router.decide(HTTPRequest(method: "GET", path: "/api/rooms/lobby/events")) else {
            Issue.record("a stream needs the exchange")
            return
        }
    }
}
