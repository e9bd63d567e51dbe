import Foundation
import Testing
import SwitchboardCore
import SwitchboardLoad
import SwitchboardTesting

/// RFC 9112 3.2: an HTTP/1.1 request has one `Host`, a URI authority; a
/// target may be in absolute form (`GET http://host/path`), whose authority
/// is then the host. libmicrohttpd served a request with no Host, two
/// (reading the first, where a proxy in front may read the last) or one
/// such as `127.0.0.1/x`, and refused every absolute target as a path.
@Suite("Host header")
struct HostHeaderTests {
    @Test func aMissingDoubledOrMalformedHostIs400AndTheConnectionClosed() throws {
        let server = try TestServer()
        for (name, head) in [("no Host", "GET /healthz HTTP/1.1\r\n\r\n"),
                             ("two Hosts", "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n"),
                             ("a path in the Host", "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1/x\r\n\r\n"),
                             ("a space in the Host", "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1 evil.example\r\n\r\n"),
                             ("an @ in the Host", "GET /healthz HTTP/1.1\r\nHost: user@127.0.0.1\r\n\r\n")] {
            let (answer, connection) = try server.rawAnswer(head)
            #expect(answer.status == 400 && answer.errorCode == "invalid_host", "\(name): \(answer.status) \(answer.text)")
            #expect(connection.isClosedByServer(), "\(name): the connection is closed")
        }
        // A publish with no Host is never stored.
        let publish = try server.rawAnswer("POST /api/rooms/lobby/messages HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                                           + "Content-Length: 13\r\n\r\nuser=a&text=b", method: "POST")
        #expect(publish.answer.errorCode == "invalid_host")
        #expect(try server.client.get("/api/rooms/lobby/messages?since=0").page().messages.isEmpty)

        // HTTP/1.0 needs none; an IPv6 literal, a name and a port are hosts.
        for head in ["GET /healthz HTTP/1.0\r\n\r\n", "GET /healthz HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n",
                     "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n", "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n"] {
            #expect(try server.rawAnswer(head).answer.status == 200, "\(head)")
        }
    }

    /// RFC 9112 5: the white space after a header's value is not part of
    /// it. libmicrohttpd keeps it: `Host: 127.0.0.1 ` was refused 400, a
    /// token followed by a space was 401, `Last-Event-ID: 1 ` no number.
    @Test func whiteSpaceAfterAHeadersValueIsNotPartOfIt() throws {
        let server = try TestServer()
        let host = "127.0.0.1:\(server.port)"
        for ending in [" ", "\t", " \t "] {
            let health = try server.rawAnswer("GET /healthz HTTP/1.1\r\nHost: \(host)\(ending)\r\n\r\n").answer
            #expect(health.status == 200, "Host with \(Array(ending.utf8)) after it: \(health.status) \(health.text)")
            let stats = try server.rawAnswer("GET /api/admin/stats HTTP/1.1\r\nHost: \(host)\r\n"
                                             + "Authorization: Bearer \(TestServer.adminToken)\(ending)\r\n\r\n").answer
            #expect(stats.status == 200, "a token with \(Array(ending.utf8)) after it: \(stats.status) \(stats.text)")
        }
        #expect(try server.client.postJSON("lobby", #"{"user":"ada","text":"one"}"#).status == 201)
        #expect(try server.client.postJSON("lobby", #"{"user":"ada","text":"two"}"#).status == 201)
        let stream = try TestHTTPConnection(port: server.port)
        try stream.send("GET /api/rooms/lobby/events HTTP/1.1\r\nHost: \(host)\r\nLast-Event-ID: 1 \r\n\r\n")
        let (status, _) = try stream.readHead()
        #expect(status == 200, "Last-Event-ID 1 and a space: \(status)")
        if status == 200 { #expect(try stream.readEvents(1).map(\.id) == ["2"]) }
        // White space inside a value is still the value's: a Host with a space in it stays refused (above).
    }

    @Test func aTargetInAbsoluteFormIsServedWithItsAuthorityAsTheHost() throws {
        let server = try TestServer()
        let connection = try TestHTTPConnection(port: server.port)
        let body = "user=ada&text=in+absolute"
        try connection.send("POST http://127.0.0.1:\(server.port)/api/rooms/lobby/messages HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                            + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        let published = try connection.readResponse(method: "POST")
        #expect(published.status == 201, "\(published.text)")
        try connection.send("GET HTTP://127.0.0.1:\(server.port)/api/rooms/lobby/messages?since=0 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(try connection.readResponse().page().messages.map(\.text) == ["in absolute"])
        // The target's authority is the host, not the header's: another name is refused as a Host of its own would be (421).
        try connection.send("GET http://evil.example/healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(try connection.readResponse().status == 421)
    }
}
