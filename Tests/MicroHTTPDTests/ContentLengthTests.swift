import CMicroHTTPD
import SwitchboardLoad
import Testing
@testable import MicroHTTPD

/// The Content-Length the head's one pass over the headers reads
/// (`sb_content_length`), by which a body announced larger than allowed is
/// refused before any of it is read.
@Suite("Content-Length read in the head's pass")
struct ContentLengthTests {
    @Test func digitsAloneAreALength() {
        func length(_ text: String?) -> Int64 {
            guard let text else { return sb_content_length(nil, 0) }
            return text.withCString { sb_content_length($0, text.utf8.count) }
        }
        #expect(length("12") == 12)
        #expect(length("0") == 0)
        #expect(length("12 \t") == 12)
        #expect(length("9223372036854775807") == Int64.max)
        for refused in [nil, "", "  ", "+1", "-1", "1a", "1 2", "0x10", "9223372036854775808", "99999999999999999999"] {
            #expect(length(refused) == -1, "\(String(describing: refused))")
        }
    }

    /// Answers 200 with the body's size, or 413 when it was announced too large.
    final class BodySize: HTTPRequestHandler {
        func handle(_ exchange: any HTTPExchanging) -> HTTPHandlerResult {
            if exchange.request.bodyTooLarge { return .respond(HTTPResponse(status: 413, body: .bytes([]))) }
            return .respond(HTTPResponse(status: 200, body: .bytes(Array(String(exchange.request.body.count).utf8))))
        }
    }

    @Test func aBodyAnnouncedTooLargeIsRefusedUnread() throws {
        let daemon = try HTTPDaemon(configuration: HTTPDaemonConfiguration(port: 0, threadPoolSize: 1, maxBodyBytes: 16), handler: BodySize())
        defer { daemon.stop() }
        let client = try TestHTTPConnection(port: daemon.port)
        try client.sendRequest("POST", "/", body: Array(repeating: UInt8(ascii: "x"), count: 16))
        let fits = try client.readResponse()
        #expect(fits.status == 200 && String(decoding: fits.body, as: UTF8.self) == "16")
        // Announced, and no body sent: refused on the head alone.
        try client.send("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 17\r\n\r\n")
        let refused = try client.readResponse()
        #expect(refused.status == 413, "\(refused.status) \(String(decoding: refused.body, as: UTF8.self))")
    }
}
