import Foundation
import Synchronization
import Testing
@testable import MicroHTTPD

#if canImport(Glibc)
import Glibc
#endif

/// libmicrohttpd's daemon start, quiesce and stop, with real sockets.
@Suite("libmicrohttpd daemon lifecycle")
struct DaemonLifecycleTests {
    /// Answers every request with 200 and an empty body.
    final class EmptyAnswer: HTTPRequestHandler {
        func handle(_ exchange: HTTPExchange) -> HTTPHandlerResult { .respond(HTTPResponse(status: 200)) }
    }

    @Test func aQuiescedDaemonClosesNewConnectionsAndGoesOnServingOpenOnes() throws {
        let daemon = try HTTPDaemon(configuration: HTTPDaemonConfiguration(port: 0, threadPoolSize: 2), handler: EmptyAnswer())
        defer { daemon.stop() }
        let open = try TestHTTPConnection(port: daemon.port)
        try open.sendRequest("GET", "/")
        #expect(try open.readResponse().status == 200)

        daemon.quiesce()
        #expect(!daemon.isAccepting)
        #expect(try Self.get(port: daemon.port) == false, "a quiesced daemon must not serve new connections")
        try open.sendRequest("GET", "/")
        #expect(try open.readResponse().status == 200, "an open keep-alive connection is still served")
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
                    while running.load(ordering: .relaxed) { _ = try? Self.get(port: port) }
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

    /// One `GET /` on a new connection: true when answered, false when the
    /// connection is refused or reset.
    static func get(port: UInt16) throws -> Bool {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return false }
        let request = Array("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)
        guard send(fd, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else { return false }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = recv(fd, &buffer, buffer.count, 0)
        return count > 0 && buffer.starts(with: Array("HTTP/1.1 200".utf8))
    }
}
