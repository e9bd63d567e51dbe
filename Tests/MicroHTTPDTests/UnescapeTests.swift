import CMicroHTTPD
import SwitchboardLoad
import Testing
@testable import MicroHTTPD

/// The daemon's unescape callback (`sb_unescape` in the shim) against
/// libmicrohttpd's own `MHD_http_unescape`, which it replaces for speed and
/// must match byte for byte; and a path and query decoded through a daemon.
@Suite("Percent-decoding of paths and query arguments")
struct UnescapeTests {
    /// What `decode` leaves in a copy of `bytes` (NUL-terminated), up to
    /// the length it returns.
    private static func decoded(_ bytes: [UInt8], _ decode: (UnsafeMutablePointer<CChar>) -> Int) -> [UInt8] {
        var buffer = bytes.map { CChar(bitPattern: $0) } + [0]
        let count = buffer.withUnsafeMutableBufferPointer { decode($0.baseAddress!) }
        return buffer[..<count].map { UInt8(bitPattern: $0) }
    }

    @Test func decodesEveryInputAsLibmicrohttpdDoes() {
        // Escapes whole, cut short and malformed, multi-byte UTF-8, `+`
        // (left to libmicrohttpd's own pass before the callback) and %00.
        let pieces: [[UInt8]] = ["%", "%4", "%41", "%2F", "%2f", "%zz", "%g1", "%%", "%00", "%C3%A9", "a", "/", "+", "=", "é", "9", "F"]
            .map { Array($0.utf8) }
        var generator = SystemRandomNumberGenerator()
        var checked = 0
        for _ in 0..<5_000 {
            let input = (0..<Int.random(in: 0...12, using: &generator)).flatMap { _ in pieces.randomElement(using: &generator)! }
            guard !input.contains(0) else { continue }
            let expected = Self.decoded(input) { MHD_http_unescape($0) }
            let actual = Self.decoded(input) { sb_unescape(nil, nil, $0) }
            #expect(actual == expected, "\(String(decoding: input, as: UTF8.self))")
            checked += 1
        }
        #expect(checked > 4_000)
        #expect(Self.decoded(Array("/a%2Fb%zz%4".utf8)) { sb_unescape(nil, nil, $0) } == Array("/a/b%zz%4".utf8))
        #expect(Self.decoded(Array("plain".utf8)) { sb_unescape(nil, nil, $0) } == Array("plain".utf8))
    }

    /// Answers with its path and its `q` and `kA` query arguments, one a line.
    final class Echo: HTTPRequestHandler {
        func handle(_ exchange: any HTTPExchanging) -> HTTPHandlerResult {
            let lines = [exchange.path, exchange.query("q") ?? "-", exchange.query("kA") ?? "-"]
            return .respond(HTTPResponse(status: 200, body: .bytes(Array(lines.joined(separator: "\n").utf8))))
        }
    }

    @Test func aDaemonDecodesThePathAndTheQuery() throws {
        let daemon = try HTTPDaemon(configuration: HTTPDaemonConfiguration(port: 0, threadPoolSize: 1), handler: Echo())
        defer { daemon.stop() }
        let client = try TestHTTPConnection(port: daemon.port)
        try client.sendRequest("GET", "/rooms/a%2Fb%zz%4?q=%41%C3%A9+x%2&k%41=v")
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "/rooms/a/b%zz%4\nAé x%2\nv")
    }
}
