import SwitchboardLoad
import Foundation
import Synchronization
import Testing
@testable import MicroHTTPD


/// libmicrohttpd's daemon start, quiesce and stop, with real sockets.
@Suite("libmicrohttpd daemon lifecycle")
struct DaemonLifecycleTests {
    /// Answers every request with 200 and an empty body.
    final class EmptyAnswer: HTTPRequestHandler {
        func handle(_ exchange: any HTTPExchanging) -> HTTPHandlerResult { .respond(HTTPResponse(status: 200)) }
    }

    @Test func aQuiescedDaemonClosesNewConnectionsAndGoesOnServingOpenOnes() throws {
        let daemon = try HTTPDaemon(configuration: HTTPDaemonConfiguration(port: 0, threadPoolSize: 2), handler: EmptyAnswer())
        defer { daemon.stop() }
        let open = try TestHTTPConnection(port: daemon.port)
        try open.sendRequest("GET", "/")
        #expect(try open.readResponse().status == 200)

        daemon.quiesce()
        #expect(!daemon.isAccepting)
        #expect(Self.get(port: daemon.port) == false, "a quiesced daemon must not serve new connections")
        try open.sendRequest("GET", "/")
        #expect(try open.readResponse().status == 200, "an open keep-alive connection is still served")
    }

    /// One worker (the server's default on 2 cores) is our own loop's
    /// thread (``DaemonLoop``): it serves, and the start says nothing (a pool
    /// of one was refused with a warning at every start).
    @Test func oneWorkerServesAndStartsWithoutAWarning() throws {
        let logged = Mutex<[String]>([])
        var configuration = HTTPDaemonConfiguration(port: 0, threadPoolSize: 1)
        configuration.log = { line in logged.withLock { $0.append(line) } }
        let daemon = try HTTPDaemon(configuration: configuration, handler: EmptyAnswer())
        defer { daemon.stop() }
        #expect(Self.get(port: daemon.port))
        let connection = try TestHTTPConnection(port: daemon.port)
        for _ in 0..<3 {
            try connection.sendRequest("GET", "/")
            #expect(try connection.readResponse().status == 200)
        }
        #expect(logged.withLock { $0 }.isEmpty, "\(logged.withLock { $0 })")
    }

    /// The loop's thread names itself, so that `top -H` and `perf` show it
    /// (Foundation's `Thread.name` reached the kernel only if set after
    /// `start()` returned: under load the thread kept its creator's name), and
    /// tells ``DaemonPasses`` of its start, of each pass and of its end, on
    /// that thread.
    @Test func oneWorkersThreadIsNamedAndTellsOfItsPasses() throws {
        final class Told: Sendable {
            let events = Mutex<[String]>([])
            func record(_ event: String) {
                let thread = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?
                    .trimmingCharacters(in: .newlines) ?? "?"
                events.withLock { $0.append("\(event) on \(thread)") }
            }
        }
        let told = Told()
        var configuration = HTTPDaemonConfiguration(port: 0, threadPoolSize: 1)
        configuration.passes = DaemonPasses(started: { told.record("started") }, ended: { told.record("ended") },
                                            stopped: { told.record("stopped") })
        let daemon = try HTTPDaemon(configuration: configuration, handler: EmptyAnswer())
        #expect(Self.get(port: daemon.port))
        #expect(Self.threadNames().contains("mhd-loop"), "\(Self.threadNames())")
        daemon.stop()
        let events = told.events.withLock { $0 }
        #expect(events.first == "started on mhd-loop")
        #expect(events.last == "stopped on mhd-loop")
        #expect(events.dropFirst().dropLast().count >= 1)
        #expect(events.dropFirst().dropLast().allSatisfy { $0 == "ended on mhd-loop" }, "\(events)")
    }

    /// The names of this process's threads, as the kernel has them.
    static func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .newlines)
        }
    }

    /// Shutdown while clients keep connecting: each cycle quiesces and stops a
    /// daemon whose workers are busy accepting. With `MHD_quiesce_daemon`
    /// this aborted the process ("Failed to remove listen FD from epoll
    /// set", libmicrohttpd 0.9.75) within a few hundred cycles; the CI run
    /// that crashed hit the same race in a server's shutdown.
    @Test func stoppingDaemonsWhileClientsKeepConnecting() throws {
        for _ in 0..<200 {
            let daemon = try HTTPDaemon(configuration: HTTPDaemonConfiguration(port: 0, threadPoolSize: 2), handler: EmptyAnswer())
            let port = daemon.port
            let running = Atomic<Bool>(true)
            let clients = DispatchGroup()
            for _ in 0..<3 {
                clients.enter()
                Thread {
                    while running.load(ordering: .relaxed) { _ = Self.get(port: port) }
                    clients.leave()
                }.start()
            }
            Thread.sleep(forTimeInterval: 0.01)
            daemon.quiesce()
            daemon.stop()
            running.store(false, ordering: .relaxed)
            #expect(clients.wait(timeout: .now() + 10) == .success)
        }
    }

    /// Parks every request and resumes it from another thread 50 ms later;
    /// the answer says it was resumed.
    final class ResumedElsewhere: HTTPRequestHandler, HTTPContinuation, @unchecked Sendable {
        func handle(_ exchange: any HTTPExchanging) -> HTTPHandlerResult {
            exchange.suspend(continuingWith: self)
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { exchange.resume() }
            return .suspended
        }

        func resumed(_ exchange: any HTTPExchanging) -> HTTPHandlerResult {
            .respond(HTTPResponse(status: 200, body: .bytes(Array("resumed".utf8))))
        }
    }

    /// A resume from another thread wakes whoever runs the daemon: our loop
    /// (one worker, no libmicrohttpd channel: ``DaemonLoop/wake()``) or
    /// libmicrohttpd's pool. Without the wake the answer would wait for the
    /// loop's next timeout (the connection timeout is 120 s), past the
    /// client's 5.
    @Test(arguments: [1, 2]) func aResumeFromAnotherThreadIsServed(workers: Int) throws {
        let daemon = try HTTPDaemon(configuration: HTTPDaemonConfiguration(port: 0, threadPoolSize: workers),
                                    handler: ResumedElsewhere())
        defer { daemon.stop() }
        let connection = try TestHTTPConnection(port: daemon.port, timeoutSeconds: 5)
        for _ in 0..<3 {
            try connection.sendRequest("GET", "/")
            let response = try connection.readResponse()
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == "resumed")
        }
    }

    /// Holds every request (suspended) until ``releaseAll()``, noting the
    /// name and id of the thread each came on.
    final class Held: HTTPRequestHandler, HTTPContinuation, @unchecked Sendable {
        let threads = Mutex<[(name: String, id: UInt)]>([])
        private let held = Mutex<[any HTTPExchanging]>([])

        func handle(_ exchange: any HTTPExchanging) -> HTTPHandlerResult {
            let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?.trimmingCharacters(in: .newlines) ?? "?"
            threads.withLock { $0.append((name, UInt(pthread_self()))) }
            exchange.suspend(continuingWith: self)
            held.withLock { $0.append(exchange) }
            return .suspended
        }

        func resumed(_ exchange: any HTTPExchanging) -> HTTPHandlerResult { .respond(HTTPResponse(status: 200)) }

        var heldCount: Int { held.withLock { $0.count } }

        func releaseAll() {
            for exchange in held.withLock({ held in defer { held = [] }; return held }) { exchange.resume() }
        }
    }

    /// Several workers are loops of their own (``DaemonLoop``, each a
    /// daemon) accepting on one listening socket, the connection limit
    /// shared out among them: with a limit of 2 and 2 workers each takes one
    /// connection, so two requests held at once are served on two threads,
    /// both named `mhd-loop`; a third connection is not taken while both
    /// are open; and each answer, resumed from another thread, reaches its
    /// client through its own worker.
    @Test func workersAreLoopsOfTheirOwnSharingTheConnectionLimit() throws {
        var configuration = HTTPDaemonConfiguration(port: 0, threadPoolSize: 2)
        configuration.connectionLimit = 2
        let handler = Held()
        let daemon = try HTTPDaemon(configuration: configuration, handler: handler)
        let connections = try (0..<2).map { _ in try TestHTTPConnection(port: daemon.port, timeoutSeconds: 5) }
        let third = try TestHTTPConnection(port: daemon.port, timeoutSeconds: 1)
        // Every connection open until the daemon has stopped: one closed
        // before would let a worker take the third, whose request it would
        // then hold (suspended) at the stop.
        defer { withExtendedLifetime((connections, third)) { handler.releaseAll(); daemon.stop() } }
        for connection in connections { try connection.sendRequest("GET", "/") }
        for _ in 0..<500 where handler.heldCount < 2 { Thread.sleep(forTimeInterval: 0.01) }
        let threads = handler.threads.withLock { $0 }
        #expect(threads.count == 2)
        #expect(Set(threads.map(\.id)).count == 2, "each worker took one connection: \(threads)")
        #expect(threads.allSatisfy { $0.name == "mhd-loop" }, "\(threads)")

        try third.sendRequest("GET", "/")
        #expect(throws: (any Error).self, "a third connection is past the limit") { try third.readResponse() }
        #expect(handler.heldCount == 2)

        handler.releaseAll()
        for connection in connections { #expect(try connection.readResponse().status == 200) }
    }

    /// More workers than connections allowed: the limit still holds (no
    /// worker is given a share of none, which libmicrohttpd would read as its
    /// own default): with a limit of 1, a second connection is not taken
    /// while the first is open.
    @Test func fewerConnectionsAllowedThanWorkersStillHoldTheLimit() throws {
        var configuration = HTTPDaemonConfiguration(port: 0, threadPoolSize: 3)
        configuration.connectionLimit = 1
        let handler = Held()
        let daemon = try HTTPDaemon(configuration: configuration, handler: handler)
        let first = try TestHTTPConnection(port: daemon.port, timeoutSeconds: 5)
        let second = try TestHTTPConnection(port: daemon.port, timeoutSeconds: 1)
        defer { withExtendedLifetime((first, second)) { handler.releaseAll(); daemon.stop() } }
        try first.sendRequest("GET", "/")
        for _ in 0..<500 where handler.heldCount < 1 { Thread.sleep(forTimeInterval: 0.01) }
        try second.sendRequest("GET", "/")
        #expect(throws: (any Error).self, "a second connection is past the limit") { try second.readResponse() }
        #expect(handler.heldCount == 1)
        handler.releaseAll()
        #expect(try first.readResponse().status == 200)
    }

    /// One `GET /` on a new connection: true when answered 200, false when
    /// the connection is refused, reset or closed without an answer.
    static func get(port: UInt16) -> Bool {
        guard let connection = try? TestHTTPConnection(port: port, timeoutSeconds: 2) else { return false }
        return (try? connection.sendRequest("GET", "/")).flatMap { try? connection.readResponse().status } == 200
    }
}
