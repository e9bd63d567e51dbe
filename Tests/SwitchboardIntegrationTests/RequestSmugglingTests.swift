import Foundation
import Testing
import SwitchboardCore
import SwitchboardLoad
import SwitchboardTesting

/// Requests whose body another HTTP parser (a proxy in front) could end
/// elsewhere than libmicrohttpd does are refused before their body is read,
/// and the connection closed: what follows can never be taken as a request
/// of its own (RFC 9112 5.1, 6.1, 6.3).
@Suite("Request smuggling")
struct RequestSmugglingTests {
    /// A publish to room `smuggled`: the request hidden in each body below.
    static let hidden = "POST /api/rooms/smuggled/messages HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 19\r\n\r\nuser=eve&text=in it"

    static let ambiguous: [(name: String, headers: String, body: String)] = [
        ("two Content-Lengths", "Content-Length: 13\r\nContent-Length: \(13 + hidden.utf8.count)\r\n", "user=a&text=b" + hidden),
        ("Content-Length beside Transfer-Encoding", "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n", "d\r\nuser=a&text=b\r\n0\r\n\r\n" + hidden),
        ("a space before the colon", "Content-Length : \(13 + hidden.utf8.count)\r\n", "user=a&text=b" + hidden),
        // To libmicrohttpd one header and no length, so no body: the hidden request came next. To a parser that ends
        // a line at a CR, a Content-Length covering both.
        ("a bare CR inside a header", "X-Note: a\rContent-Length: \(13 + hidden.utf8.count)\r\n", "user=a&text=b" + hidden),
        ("Transfer-Encoding other than chunked alone", "Transfer-Encoding: gzip, chunked\r\n", "d\r\nuser=a&text=b\r\n0\r\n\r\n" + hidden),
        ("Transfer-Encoding twice", "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n", "d\r\nuser=a&text=b\r\n0\r\n\r\n" + hidden),
    ]

    @Test func ambiguousFramingIsRefusedAndTheConnectionClosed() throws {
        let server = try TestServer()
        for (name, headers, body) in Self.ambiguous {
            let (answer, connection) = try server.rawAnswer("POST /api/rooms/lobby/messages HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                                        + "Content-Type: application/x-www-form-urlencoded\r\n\(headers)\r\n\(body)",
                                                        method: "POST")
            #expect(answer.status == 400 && answer.errorCode == "ambiguous_framing", "\(name): \(answer.status) \(answer.text)")
            #expect(connection.isClosedByServer(), "\(name): the connection is closed")
        }
        // HTTP/1.0 has no Transfer-Encoding.
        let old = try TestHTTPConnection(port: server.port)
        try old.send("POST /api/rooms/lobby/messages HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                     + "Transfer-Encoding: chunked\r\n\r\nd\r\nuser=a&text=b\r\n0\r\n\r\n")
        #expect(try old.readResponse(method: "POST").errorCode == "ambiguous_framing")
        // Nothing was stored, hidden or not.
        #expect(try server.client.get("/api/rooms/smuggled/messages?since=0").page().messages.isEmpty)
        #expect(try server.client.get("/api/rooms/lobby/messages?since=0").page().messages.isEmpty)

        // What is not ambiguous is served: the same length twice, chunked alone (in any case).
        let plain = try TestHTTPConnection(port: server.port)
        for headers in ["Content-Length: 13\r\nContent-Length: 13\r\n", "Transfer-Encoding: Chunked\r\n"] {
            let body = headers.hasPrefix("Content") ? "user=a&text=b" : "d\r\nuser=a&text=b\r\n0\r\n\r\n"
            try plain.send("POST /api/rooms/lobby/messages HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                           + "Content-Type: application/x-www-form-urlencoded\r\n\(headers)\r\n\(body)")
            #expect(try plain.readResponse(method: "POST").status == 201, "\(headers)")
        }
    }
}
