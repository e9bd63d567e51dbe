import SwitchboardLoad
import Synchronization
import Testing
@testable import MicroHTTPD

/// One response made in libmicrohttpd and queued on many exchanges
/// (``SharedResponse``), over real sockets.
@Suite("A response shared by many exchanges")
struct SharedResponseTests {
    /// Answers every request with the one shared response it holds: `404`
    /// on `/missing`, `200` elsewhere, and on `/cors` with a header of the
    /// exchange's own. Its maker can let go of the response at any time.
    final class SharedAnswer: HTTPRequestHandler {
        let held: Mutex<SharedResponse?>

        init(_ shared: SharedResponse) { held = Mutex(shared) }

        func handle(_ exchange: any HTTPExchanging) -> HTTPHandlerResult {
            guard let shared = held.withLock({ $0 }) else { return .respond(HTTPResponse(status: 410)) }
            if exchange.path == "/cors" { exchange.responseHeaders = [("Access-Control-Allow-Origin", "https://a.example")] }
            return .respond(HTTPResponse(status: exchange.path == "/missing" ? 404 : 200, body: .shared(shared)))
        }
    }

    /// Bodies larger than a socket's buffers, sent to clients that have not
    /// read yet when the handler drops its reference: libmicrohttpd's count
    /// of references keeps the response whole until the last is sent.
    @Test func everyExchangeGetsTheWholeResponseWithItsOwnStatusAfterItsMakerLetGo() throws {
        let body = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let handler = SharedAnswer(SharedResponse(headers: [("Content-Type", "application/octet-stream"), ("X-Shared", "yes")],
                                                  bytes: body))
        let daemon = try HTTPDaemon(configuration: HTTPDaemonConfiguration(port: 0, threadPoolSize: 1), handler: handler)
        defer { daemon.stop() }
        let clients = try (0..<12).map { _ in try TestHTTPConnection(port: daemon.port) }
        for (index, client) in clients.enumerated() { try client.sendRequest("GET", index % 3 == 0 ? "/missing" : "/") }
        // Every request is being answered (the first bytes have come) before the handler lets go.
        for client in clients { try client.awaitBytes(12) }
        handler.held.withLock { $0 = nil }
        for (index, client) in clients.enumerated() {
            let rest = try client.readResponse()
            #expect(rest.status == (index % 3 == 0 ? 404 : 200))
            #expect(rest.header("x-shared") == "yes")
            #expect(rest.body == body, "client \(index): \(rest.body.count) bytes")
        }
        // Each connection is served again, now without the response.
        try clients[0].sendRequest("GET", "/")
        #expect(try clients[0].readResponse().status == 410)
    }

    /// An exchange with headers of its own (CORS) gets them besides the
    /// shared ones, on a response of its own: the shared one is unchanged
    /// for the next exchange.
    @Test func anExchangesOwnHeadersGoOnlyToItsAnswer() throws {
        let handler = SharedAnswer(SharedResponse(headers: [("Content-Type", "application/json")], bytes: Array(#"{"ok":1}"#.utf8)))
        let daemon = try HTTPDaemon(configuration: HTTPDaemonConfiguration(port: 0, threadPoolSize: 1), handler: handler)
        defer { daemon.stop() }
        let client = try TestHTTPConnection(port: daemon.port)
        for path in ["/", "/cors", "/"] {
            try client.sendRequest("GET", path)
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.header("content-type") == "application/json")
            #expect(response.text == #"{"ok":1}"#)
            #expect(response.header("access-control-allow-origin") == (path == "/cors" ? "https://a.example" : nil), "\(path)")
        }
    }
}
