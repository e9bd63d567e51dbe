import SwitchboardLoad
import Foundation
import Synchronization
import Testing
@testable import MicroHTTPD

/// A request left unanswered and not suspended
/// (``HTTPExchanging/askAgain(continuingWith:)``) is asked again at the
/// daemon's next pass: libmicrohttpd calls its access handler again while a
/// connection has no response. The continuation then answers, or suspends
/// and is resumed as any other. On one worker (our loop) and on
/// libmicrohttpd's own pool.
@Suite("Asked again")
struct AskAgainTests {
    /// Asks again; its continuation answers when ``ready`` is set, and
    /// otherwise suspends (to be resumed by the test).
    final class Asker: HTTPRequestHandler, HTTPContinuation, @unchecked Sendable {
        let ready: Bool
        let asked = Atomic<Int>(0)
        let suspended = Mutex<(any HTTPExchanging)?>(nil)

        init(ready: Bool) { self.ready = ready }

        func handle(_ exchange: any HTTPExchanging) -> HTTPHandlerResult {
            exchange.askAgain(continuingWith: self)
            return .askedAgain
        }

        func resumed(_ exchange: any HTTPExchanging) -> HTTPHandlerResult {
            let count = asked.add(1, ordering: .relaxed).newValue
            if ready || count > 1 { return .respond(HTTPResponse(status: 200, body: .bytes(Array("asked \(count)".utf8)))) }
            exchange.suspend(continuingWith: self)
            suspended.withLock { $0 = exchange }
            return .suspended
        }
    }

    /// A daemon with `threads` workers for `asker`, and a connection to it.
    private static func serving(_ asker: Asker, threads: Int) throws -> (HTTPDaemon, TestHTTPConnection) {
        let daemon = try HTTPDaemon(configuration: HTTPDaemonConfiguration(port: 0, threadPoolSize: threads), handler: asker)
        return (daemon, try TestHTTPConnection(port: daemon.port, timeoutSeconds: 10))
    }

    @Test(arguments: [1, 2])
    func theContinuationAnswersAtTheNextPass(threads: Int) throws {
        let asker = Asker(ready: true)
        let (daemon, connection) = try Self.serving(asker, threads: threads)
        defer { daemon.stop() }
        for round in 1...4 {  // and again on the same keep-alive connection, with a body and without
            let body = round.isMultiple(of: 2) ? Array("text=a+publish".utf8) : nil
            try connection.sendRequest(body == nil ? "GET" : "POST", "/soon", body: body)
            let response = try connection.readResponse()
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == "asked \(round)")
        }
    }

    @Test(arguments: [1, 2])
    func aContinuationThatSuspendsIsAnsweredWhenResumed(threads: Int) throws {
        let asker = Asker(ready: false)
        let (daemon, connection) = try Self.serving(asker, threads: threads)
        defer { daemon.stop() }
        try connection.sendRequest("GET", "/later")
        var exchange: (any HTTPExchanging)?
        for _ in 0..<500 where exchange == nil {
            exchange = asker.suspended.withLock { $0 }
            if exchange == nil { Thread.sleep(forTimeInterval: 0.01) }
        }
        #expect(asker.asked.load(ordering: .relaxed) == 1, "asked once, then suspended")
        try #require(exchange).resume()
        let response = try connection.readResponse()
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "asked 2")
    }
}
