import Foundation
import Synchronization
import Testing
import SwitchboardCore
import SwitchboardTesting

/// SPEC "Identity and access", end to end over real sockets: HTTP as curl
/// sends it, EventSource's `access_token`, a WebSocket, and nc's `auth:`.
@Suite("Identity and access")
struct IdentityTests {
    typealias Support = IdentityTestSupport
    let admin = [("Authorization", "Bearer \(TestServer.adminToken)")]

    @Test func registerSignInAndSpeakOnlyAsYourself() throws {
        let server = try TestServer()
        let client = server.client
        let token = try Support.signUp(client, "luke")
        #expect(try client.get("/api/me", headers: Support.bearer(token)).json()["user"] as? String == "luke")
        #expect(try client.get("/api/me").status == 401)

        // The token speaks as its user, named or not; naming someone else is refused.
        #expect(try Support.publish(client, token: token, text: "hi").message().user == "luke")
        #expect(try Support.publish(client, token: token, user: "luke", text: "hi").status == 201)
        #expect(try Support.publish(client, token: token, user: "leia", text: "hi").errorCode == "not_your_name")
        // Without the token, the registered name is reserved, in any case; other names stay free.
        #expect(try Support.publish(client, token: nil, user: "luke", text: "hi").errorCode == "name_reserved")
        #expect(try Support.publish(client, token: nil, user: "LUKE", text: "hi").status == 403)
        #expect(try client.postForm("lobby", user: "han", text: "guests still chat").status == 201)

        // Registration's refusals; sign-in's one answer for a wrong password and an unknown user.
        let again = try client.request("POST", "/api/accounts", body: Array("user=Luke&password=another password".utf8))
        #expect(again.status == 409 && again.errorCode == "name_taken")
        #expect(try client.request("POST", "/api/accounts", body: Array("user=leia&password=short".utf8)).errorCode == "invalid_password")
        let wrong = try client.request("POST", "/api/sessions", body: Array("user=luke&password=wrong password".utf8))
        let unknown = try client.request("POST", "/api/sessions", body: Array("user=nobody&password=wrong password".utf8))
        #expect(wrong.status == 401 && unknown.status == 401 && wrong.text == unknown.text)
        // The browser's session cookie.
        let session = try client.request("POST", "/api/sessions", body: Array("user=luke&password=\(Support.password)".utf8))
        let cookie = try #require(session.header("Set-Cookie"))
        #expect(cookie.hasPrefix("switchboard_session=") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
        let value = String(cookie.split(separator: ";")[0])
        #expect(try client.get("/api/me", headers: [("Cookie", value)]).json()["user"] as? String == "luke")
    }

    @Test func aRegisteredNameIsReservedOnEveryTransport() throws {
        let server = try TestServer()
        _ = try Support.signUp(server.client, "luke")
        #expect(try server.client.get("/api/rooms/lobby/events?user=luke").errorCode == "name_reserved")
        #expect(try server.client.get("/api/rooms/lobby/messages?user=luke").errorCode == "name_reserved")
        let socket = try TestWebSocketClient(port: server.port, path: "/api/rooms/lobby/ws?user=luke")
        #expect(socket.status == 403)
        let tcp = try TestLineClient(port: server.tcpPort)
        try tcp.write("iam:luke\n")
        #expect(try tcp.readLine() == "error:name_reserved")
        try tcp.write("iam:han\n")
        #expect(try tcp.readLine() == "han has joined")
    }

    @Test func aTokenOnEveryTransportSpeaksAsItsUserAndIsPresentByIt() throws {
        let server = try TestServer()
        let client = server.client
        let token = try Support.signUp(client, "leia")
        // EventSource: ?access_token=, no ?user= needed to be present.
        let stream = try client.openStream("/api/rooms/lobby/events?access_token=\(token)")
        _ = try stream.readEvents(1)  // leia's join
        let presence = try client.get("/api/rooms/lobby/presence").text
        #expect(presence.contains("leia") && presence.contains("sse"))
        // WebSocket: a publish without a user is the token's; naming another is refused.
        let socket = try TestWebSocketClient(port: server.port, path: "/api/rooms/lobby/ws?access_token=\(token)")
        #expect(socket.status == 101)
        try socket.sendText(#"{"text":"from the socket","ref":1}"#)
        var reply = try socket.readJSON()
        while reply["ack"] == nil && reply["error"] == nil { reply = try socket.readJSON() }
        #expect(reply["ack"] as? Int == 1)
        try socket.sendText(#"{"text":"as han","user":"han","ref":2}"#)
        while reply["ref"] as? Int != 2 { reply = try socket.readJSON() }
        #expect((reply["error"] as? [String: Any])?["code"] as? String == "not_your_name")
        #expect(try TestWebSocketClient(port: server.port, path: "/api/rooms/lobby/ws?access_token=\(token)&user=han").status == 403)
        // nc: auth:TOKEN, then msg: without iam:.
        let tcp = try TestLineClient(port: server.tcpPort)
        try tcp.write("auth:\(token)\n")
        #expect(try tcp.readLine() == "auth:leia")
        try tcp.write("msg:from nc\n")
        _ = try tcp.readUntil { $0 == "leia:from nc" }
        try tcp.write("iam:han\n")
        #expect(try tcp.readLine() == "error:not_your_name")
        try tcp.write("auth:not-a-token\n")
        #expect(try tcp.readLine() == "error:invalid_token")
        let events = try stream.readEvents(2).compactMap { $0.data.contains("from") ? $0.data : nil }
        #expect(events.allSatisfy { $0.contains(#""user":"leia""#) })
    }

    @Test func signOutRefusesTheTokenEverywhereAndClosesItsConnections() throws {
        let server = try TestServer()
        let client = server.client
        let token = try Support.signUp(client, "luke")
        let other = try Support.signIn(client, "luke")
        let stream = try client.openStream("/api/rooms/lobby/events", headers: Support.bearer(token))
        let socket = try TestWebSocketClient(port: server.port, path: "/api/rooms/lobby/ws?access_token=\(token)")
        let tcp = try TestLineClient(port: server.tcpPort)
        try tcp.write("auth:\(token)\n")
        #expect(try tcp.readLine() == "auth:luke")

        let signedOut = try client.request("DELETE", "/api/sessions/current", headers: Support.bearer(token))
        #expect(signedOut.status == 204 && signedOut.header("Set-Cookie")?.contains("Max-Age=0") == true)
        #expect(try client.get("/api/me", headers: Support.bearer(token)).errorCode == "token_revoked")
        #expect(try stream.readStreamEnd())
        #expect(try socket.readCloseCode() == 1008)
        #expect(try tcp.readUntil { $0.hasPrefix("error:") } == "error:token_revoked")
        #expect(tcp.isClosedByServer())
        // Another session of the same user goes on.
        #expect(try client.get("/api/me", headers: Support.bearer(other)).status == 200)
        // And the revocation survives a restart.
        let restarted = try server.restarted()
        #expect(try restarted.client.get("/api/me", headers: Support.bearer(token)).errorCode == "token_revoked")
    }

    /// A WebSocket's token is checked at its handshake, and the connection
    /// entered in the server's directory once SwiftNIO has its socket; a
    /// sign-out or a ban in between (a loaded machine: once in ten runs of
    /// the test above) left it open, unclosed until its client stopped
    /// answering pings. Entered after either, it is ended at once.
    @Test func aConnectionEnteredAfterASignOutOrABanIsEnded() throws {
        let server = try TestServer()
        let (luke, vader) = (try Support.signUp(server.client, "luke"), try Support.signUp(server.client, "vader"))
        let (lukes, vaders) = (try server.server.access.identify(token: luke), try server.server.access.identify(token: vader))
        #expect(try server.client.request("DELETE", "/api/sessions/current", headers: Support.bearer(luke)).status == 204)
        #expect(try server.client.request("POST", "/api/admin/users/vader/ban", headers: admin, body: Array("seconds=600".utf8)).status == 200)
        #expect(try server.client.request("POST", "/api/admin/users/tarkin/ban", headers: admin, body: Array("seconds=600".utf8)).status == 200)
        let ended = Mutex<[ConnectionEnd]>([])
        for identity in [lukes, vaders] {
            _ = server.server.connections.open(.websocket, identity: identity) { reason in ended.withLock { $0.append(reason) } }
        }
        // A guest's banned name, entered with it.
        _ = server.server.connections.open(.websocket, user: "tarkin", rooms: ["lobby"]) { reason in ended.withLock { $0.append(reason) } }
        #expect(ended.withLock { $0 } == [.tokenRevoked, .banned, .banned])
    }

    @Test func aBanClosesEveryConnectionAndRefusesUntilLifted() throws {
        let server = try TestServer()
        let client = server.client
        let token = try Support.signUp(client, "vader")
        let stream = try client.openStream("/api/rooms/lobby/events", headers: Support.bearer(token))
        let socket = try TestWebSocketClient(port: server.port, path: "/api/rooms/lobby/ws?access_token=\(token)")
        let guest = try TestLineClient(port: server.tcpPort)
        try guest.write("iam:tarkin\n")
        _ = try guest.readUntil { $0 == "tarkin has joined" }

        let banned = try client.request("POST", "/api/admin/users/vader/ban", headers: admin + [("Content-Type", "application/json")],
                                        body: Array(#"{"seconds":600}"#.utf8))
        #expect(banned.status == 200)
        #expect(try stream.readStreamEnd())
        #expect(try socket.readCloseCode() == 1008)
        #expect(try client.get("/api/me", headers: Support.bearer(token)).errorCode == "banned")
        #expect(try client.request("POST", "/api/sessions", body: Array("user=vader&password=\(Support.password)".utf8)).errorCode == "banned")
        // A guest's name can be banned too: its connection ends, and the name is refused.
        _ = try client.request("POST", "/api/admin/users/tarkin/ban", headers: admin, body: Array("seconds=600".utf8))
        #expect(try guest.readUntil { $0.hasPrefix("error:") } == "error:banned")
        let again = try TestLineClient(port: server.tcpPort)
        try again.write("iam:tarkin\n")
        #expect(try again.readLine() == "error:banned")

        let listed = try client.get("/api/admin/accounts", headers: admin).text
        #expect(listed.contains(#""user":"vader""#) && listed.contains("banned_until"))
        // Bans survive a restart; lifting one lets the user back.
        let restarted = try server.restarted()
        #expect(try restarted.client.get("/api/me", headers: Support.bearer(token)).errorCode == "banned")
        #expect(try restarted.client.request("DELETE", "/api/admin/users/vader/ban", headers: admin).status == 204)
        #expect(try restarted.client.get("/api/me", headers: Support.bearer(token)).status == 200)
    }

    @Test func tokensMintedByPyJWTAreAcceptedAndItsForgeriesRefused() throws {
        let mint = try PyJWTMint()
        let exp = Support.nowSeconds + 600
        let rsaServer = try TestServer(auth: TestServer.auth(jwtSecret: Support.secret, jwtPublicKeyPEM: mint.publicKey("rsa")))
        let ecServer = try TestServer(auth: TestServer.auth(jwtPublicKeyPEM: mint.publicKey("ec")))
        func me(_ server: TestServer, _ token: String) throws -> (Int, String?, String) {
            let response = try server.client.get("/api/me", headers: Support.bearer(token))
            return (response.status, response.errorCode, response.text)
        }
        let hs = try mint.mint(#"{"sub":"han","exp":\#(exp)}"#, key: "secret:\(Support.secret)", algorithm: "HS256")
        let rs = try mint.mint(#"{"sub":"leia","exp":\#(exp),"iat":\#(exp - 600)}"#, key: "rsa", algorithm: "RS256")
        let es = try mint.mint(#"{"sub":"chewie","exp":\#(exp),"nbf":\#(exp - 700)}"#, key: "ec", algorithm: "ES256")
        #expect(try me(rsaServer, hs).0 == 200)
        #expect(try me(rsaServer, rs).2.contains(#""user":"leia""#))
        #expect(try me(ecServer, es).2.contains(#""user":"chewie""#))

        let forgeries = [
            ("unsigned", try mint.mint(#"{"sub":"han","exp":\#(exp)}"#, key: "secret:", algorithm: "none"), "alg 'none'"),
            ("wrong key", try mint.mint(#"{"sub":"han","exp":\#(exp)}"#, key: "other-rsa", algorithm: "RS256"), "signature"),
            ("wrong secret", try mint.mint(#"{"sub":"han","exp":\#(exp)}"#, key: "secret:another secret of thirty-two bytes!!", algorithm: "HS256"), "signature"),
            ("expired", try mint.mint(#"{"sub":"han","exp":\#(exp - 1200)}"#, key: "rsa", algorithm: "RS256"), "expired"),
            ("not yet valid", try mint.mint(#"{"sub":"han","exp":\#(exp),"nbf":\#(exp - 10)}"#, key: "rsa", algorithm: "RS256"), "nbf"),
            ("no sub", try mint.mint(#"{"exp":\#(exp)}"#, key: "rsa", algorithm: "RS256"), "'sub'"),
            ("no exp", try mint.mint(#"{"sub":"han"}"#, key: "rsa", algorithm: "RS256"), "'exp'"),
            ("ES256 where only RS256 is known", try mint.mint(#"{"sub":"han","exp":\#(exp)}"#, key: "ec", algorithm: "ES256"), "no key here"),
        ]
        for (name, token, reason) in forgeries {
            let (status, code, text) = try me(rsaServer, token)
            #expect(status == 401 && code == "invalid_token", "\(name)")
            #expect(text.contains(reason), "\(name): \(text)")
            #expect(!text.contains(token), "\(name): the answer must not quote the token")
            // Refused in --auth open too: a bad token is never read as a guest.
            #expect(try rsaServer.client.get("/api/rooms/lobby/messages?access_token=\(token)").status == 401, "\(name)")
        }
    }

    @Test func aTokensRoomsClaimLimitsEveryTransport() throws {
        let server = try TestServer(auth: TestServer.auth(jwtSecret: Support.secret))
        let exp = Support.nowSeconds + 600
        let token = Support.hs256(#"{"sub":"ahsoka","exp":\#(exp),"rooms":["jedi-*"]}"#)
        #expect(try Support.publish(server.client, token: token, text: "hi", room: "jedi-council").status == 201)
        #expect(try Support.publish(server.client, token: token, text: "hi", room: "lobby").errorCode == "forbidden")
        #expect(try server.client.get("/api/rooms/lobby/events?access_token=\(token)").errorCode == "forbidden")
        #expect(try server.client.get("/api/events?access_token=\(token)").errorCode == "forbidden")
        #expect(try TestWebSocketClient(port: server.port, path: "/api/rooms/lobby/ws?access_token=\(token)").status == 403)
        let rooms = try server.client.get("/api/rooms?access_token=\(token)").text
        #expect(rooms.contains("jedi-council") && !rooms.contains(#""lobby""#))
        let tcp = try TestLineClient(port: server.tcpPort)
        try tcp.write("join:jedi-temple\nauth:\(token)\n")
        #expect(try tcp.readLine() == "auth:ahsoka")
        try tcp.write("join:lobby\n")
        #expect(try tcp.readUntil { $0.hasPrefix("error:") } == "error:forbidden")
    }

    @Test func anExpiringTokenClosesItsConnections() throws {
        let server = try TestServer(auth: TestServer.auth(jwtSecret: Support.secret))
        let token = Support.hs256(#"{"sub":"rey","exp":\#(Support.nowSeconds + 2)}"#)
        let stream = try server.client.openStream("/api/rooms/lobby/events?access_token=\(token)")
        let socket = try TestWebSocketClient(port: server.port, path: "/api/rooms/lobby/ws?access_token=\(token)")
        let tcp = try TestLineClient(port: server.tcpPort)
        try tcp.write("auth:\(token)\n")
        #expect(try tcp.readLine() == "auth:rey")
        #expect(try tcp.readUntil { $0.hasPrefix("error:") } == "error:token_expired")
        #expect(tcp.isClosedByServer())
        #expect(try socket.readCloseCode() == 1008)
        #expect(try stream.readStreamEnd())
    }

    @Test func requiredModeNeedsATokenEverywhereButHealthMetricsPagesAndSignIn() throws {
        let server = try TestServer(auth: TestServer.auth(mode: .required))
        let client = server.client
        let refused = try client.get("/api/rooms/lobby/messages")
        #expect(refused.status == 401 && refused.errorCode == "unauthorized" && refused.header("WWW-Authenticate") == "Bearer")
        #expect(try client.postForm("lobby", user: "han", text: "hi").status == 401)
        #expect(try client.get("/api/rooms/lobby/events").status == 401)
        #expect(try TestWebSocketClient(port: server.port, path: "/api/rooms/lobby/ws").status == 401)
        let tcp = try TestLineClient(port: server.tcpPort)
        try tcp.write("iam:han\n")
        #expect(try tcp.readLine() == "error:unauthorized")
        let health = try client.get("/healthz")
        let mode = try health.json()["auth"] as? String
        #expect(health.status == 200 && mode == "required", "the page offers no guest join")
        #expect(try client.get("/metrics").status == 200)
        let token = try Support.signUp(client, "han")
        #expect(try Support.publish(client, token: token, text: "signed in").status == 201)
        try tcp.write("auth:\(token)\n")
        #expect(try tcp.readLine() == "auth:han")
    }

    @Test func registrationByTheAdminOnly() throws {
        let server = try TestServer(auth: TestServer.auth(registration: .admin))
        let body = Array("user=lando&password=\(Support.password)".utf8)
        #expect(try server.client.request("POST", "/api/accounts", body: body).errorCode == "registration_closed")
        #expect(try server.client.request("POST", "/api/accounts", headers: admin, body: body).status == 201)
        #expect(try Support.signIn(server.client, "lando").isEmpty == false)
    }

    @Test func thePublishRateIsPerUserOnEveryTransportAndTheAdminIsNeverLimited() throws {
        let server = try TestServer(auth: TestServer.auth(publishRate: 0.2, publishBurst: 2))
        let client = server.client
        #expect(try client.postForm("lobby", user: "han", text: "1").status == 201)
        #expect(try client.postForm("lobby", user: "han", text: "2").status == 201)
        let limited = try client.postForm("lobby", user: "han", text: "3")
        #expect(limited.status == 429 && limited.errorCode == "rate_limited" && Int(limited.header("Retry-After") ?? "") ?? 0 >= 1)
        // Guests are counted by address: another name from here shares the bucket.
        #expect(try client.postForm("lobby", user: "chewie", text: "4").status == 429)
        // A user with a token has a bucket of its own, on every transport.
        let token = try Support.signUp(client, "leia")
        let tcp = try TestLineClient(port: server.tcpPort)
        try tcp.write("auth:\(token)\nmsg:a\nmsg:b\nmsg:c\n")
        #expect(try tcp.readUntil { $0.hasPrefix("error:") } == "error:rate_limited")
        let socket = try TestWebSocketClient(port: server.port, path: "/api/rooms/lobby/ws?access_token=\(token)")
        try socket.sendText(#"{"text":"d","ref":9}"#)
        var reply = try socket.readJSON()
        while reply["ref"] as? Int != 9 { reply = try socket.readJSON() }
        #expect((reply["error"] as? [String: Any])?["code"] as? String == "rate_limited")
        let system = try client.request("POST", "/api/admin/rooms/lobby/system", headers: admin, body: Array("text=admin speaks".utf8))
        #expect(system.status == 201)
        #expect(try client.request("POST", "/api/rooms/lobby/messages", headers: admin, body: Array("user=backend&text=x".utf8)).status == 201)
    }

    @Test func aForeignPageCannotOpenASocketOrActWithTheCookie() throws {
        let server = try TestServer(allowedOrigins: ["https://app.example"])
        let token = try Support.signUp(server.client, "luke")
        let foreign = try TestWebSocketClient(port: server.port, path: "/api/rooms/lobby/ws?user=han",
                                              extraHeaders: [("Origin", "https://evil.example")])
        #expect(foreign.status == 403)
        let allowed = try TestWebSocketClient(port: server.port, path: "/api/rooms/lobby/ws?user=han",
                                              extraHeaders: [("Origin", "https://app.example")])
        #expect(allowed.status == 101)
        let own = try TestWebSocketClient(port: server.port, path: "/api/rooms/lobby/ws?user=han",
                                          extraHeaders: [("Origin", "http://127.0.0.1")])  // the test client sends Host: 127.0.0.1
        #expect(own.status == 101)
        let viaCookie = try server.client.request("POST", "/api/rooms/lobby/messages",
                                                  headers: [("Cookie", "switchboard_session=\(token)"), ("Origin", "https://evil.example")],
                                                  body: Array("text=csrf".utf8))
        #expect(viaCookie.status == 403 && viaCookie.errorCode == "origin_not_allowed")
        let cors = try server.client.get("/api/rooms/lobby/messages", headers: [("Origin", "https://app.example")])
        #expect(cors.header("Access-Control-Allow-Origin") == "https://app.example" && cors.header("Vary") == "Origin")
        #expect(try server.client.get("/api/rooms/lobby/messages", headers: [("Origin", "https://evil.example")])
            .header("Access-Control-Allow-Origin") == nil)
    }

    @Test func noSecretAppearsInAnswersMetricsOrTheAdminPage() throws {
        let server = try TestServer()
        let token = try Support.signUp(server.client, "luke")
        _ = try server.client.get("/api/rooms/lobby/messages?access_token=\(token)")
        _ = try server.client.get("/api/rooms/lobby/messages?access_token=\(token)x")
        for path in ["/metrics", "/api/admin/stats", "/api/admin/connections", "/api/admin/accounts"] {
            let text = try server.client.get(path, headers: admin).text
            #expect(!text.contains(token) && !text.contains(Support.password), "\(path)")
        }
    }
}
