import SwitchboardLoad
import Foundation
import Synchronization
import Testing
@testable import MicroHTTPD

/// With one worker (``DaemonLoop``), an exchange resumed on its own (a
/// publish's answer once its commit is done) is served before the next turn
/// of exchanges resumed in turns (a room's long polls and streams), though
/// all of those were suspended before it.
@Suite("Resume order")
struct ResumeOrderTests {
    /// Suspends every request but `/block`, which holds the loop's thread
    /// until released (so that resumes pile up while no pass runs); records
    /// the order in which resumed requests are served.
    final class Recorder: HTTPRequestHandler, HTTPContinuation, @unchecked Sendable {
        let suspended = Mutex<[String: any HTTPExchanging]>([:])
        let served = Mutex<[String]>([])
        let blocking = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)

        func handle(_ exchange: any HTTPExchanging) -> HTTPHandlerResult {
            if exchange.path == "/ask" {
                exchange.askAgain(continuingWith: self)
                return .askedAgain
            }
            if exchange.path == "/block" {
                blocking.signal()
                release.wait()
                return .respond(HTTPResponse(status: 200))
            }
            exchange.suspend(continuingWith: self)
            suspended.withLock { $0[exchange.path] = exchange }
            return .suspended
        }

        func resumed(_ exchange: any HTTPExchanging) -> HTTPHandlerResult {
            served.withLock { $0.append(exchange.path) }
            return .respond(HTTPResponse(status: 200))
        }

        /// Waits until `path`'s request is suspended, and gives its exchange.
        func exchange(_ path: String) throws -> any HTTPExchanging {
            for _ in 0..<500 {
                if let exchange = suspended.withLock({ $0[path] }) { return exchange }
                Thread.sleep(forTimeInterval: 0.01)
            }
            throw CancellationError()
        }
    }

    /// A daemon on one worker (our loop) resuming turns of two.
    private static func loop(_ recorder: Recorder) throws -> HTTPDaemon {
        var configuration = HTTPDaemonConfiguration(port: 0, threadPoolSize: 1)
        configuration.resumeBatchSize = 2
        return try HTTPDaemon(configuration: configuration, handler: recorder)
    }

    /// A connection for each path, its request suspended: the connections and the exchanges by path.
    private static func waiting(_ paths: [String], on daemon: HTTPDaemon, _ recorder: Recorder) throws
        -> ([TestHTTPConnection], [String: any HTTPExchanging])
    {
        var connections: [TestHTTPConnection] = []
        var exchanges: [String: any HTTPExchanging] = [:]
        for path in paths {
            let connection = try TestHTTPConnection(port: daemon.port, timeoutSeconds: 10)
            try connection.sendRequest("GET", path)
            connections.append(connection)
            exchanges[path] = try recorder.exchange(path)
        }
        return (connections, exchanges)
    }

    @Test func anExchangeResumedOnItsOwnIsServedBeforeTheNextTurn() throws {
        let recorder = Recorder()
        let daemon = try Self.loop(recorder)
        defer { daemon.stop() }
        // Six waiting (a room's long polls), then the publish, suspended last.
        let paths = (0..<6).map { "/wait/\($0)" } + ["/answer"]
        let (connections, exchanges) = try Self.waiting(paths, on: daemon, recorder)
        let blocker = try TestHTTPConnection(port: daemon.port, timeoutSeconds: 10)
        try blocker.sendRequest("GET", "/block")
        #expect(recorder.blocking.wait(timeout: .now() + 10) == .success)
        // While the loop is held: the answer resumed on its own, then every waiting one in turns.
        exchanges["/answer"]!.resume()
        for path in paths.dropLast() { exchanges[path]!.resumeInTurn() }
        recorder.release.signal()

        #expect(try blocker.readResponse().status == 200)
        for connection in connections { #expect(try connection.readResponse().status == 200) }
        let served = recorder.served.withLock { $0 }
        #expect(served.first == "/answer", "served in this order: \(served)")
        #expect(Array(served.dropFirst()) == Array(paths.dropLast()), "the turns, oldest first: \(served)")
    }

    /// An exchange asked again (a publish waiting a pass for its commit) is
    /// asked at the pass after its request, before the next turn.
    @Test func anExchangeAskedAgainIsAskedBeforeTheNextTurn() throws {
        let recorder = Recorder()
        let daemon = try Self.loop(recorder)
        defer { daemon.stop() }
        let paths = (0..<6).map { "/wait/\($0)" }
        let (connections, exchanges) = try Self.waiting(paths, on: daemon, recorder)
        let asker = try TestHTTPConnection(port: daemon.port, timeoutSeconds: 10)
        Thread.sleep(forTimeInterval: 0.05)  // accepted: its request is read in the pass it arrives for
        let blocker = try TestHTTPConnection(port: daemon.port, timeoutSeconds: 10)
        try blocker.sendRequest("GET", "/block")
        #expect(recorder.blocking.wait(timeout: .now() + 10) == .success)
        // While the loop is held: three turns queued, and a request that will ask again.
        for path in paths { exchanges[path]!.resumeInTurn() }
        try asker.sendRequest("GET", "/ask")
        Thread.sleep(forTimeInterval: 0.05)
        recorder.release.signal()

        #expect(try blocker.readResponse().status == 200)
        #expect(try asker.readResponse().status == 200)
        for connection in connections { #expect(try connection.readResponse().status == 200) }
        let served = recorder.served.withLock { $0 }
        // Read in the pass of the first turn, asked in the pass after it.
        #expect(served == Array(paths.prefix(2)) + ["/ask"] + Array(paths.dropFirst(2)), "served in this order: \(served)")
    }
}
