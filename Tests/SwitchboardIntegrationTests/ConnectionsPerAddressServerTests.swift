import Foundation
import Testing
import SwitchboardCore
import SwitchboardLoad
import SwitchboardTesting

/// One address cannot take every connection the server has: past
/// `--max-connections-per-address` (on every port together) its next one is
/// closed as soon as it is accepted, while other addresses are served, and
/// a connection it closes makes room again. Real sockets on loopback, each
/// client bound to its own 127/8 address (the server holds loopback to the
/// limit here; by default loopback is not limited).
@Suite("Connections per address, over real sockets")
struct ConnectionsPerAddressServerTests {
    /// An SSE stream from `source`, its head read: a connection the server holds.
    static func stream(_ port: UInt16, from source: String) throws -> TestHTTPConnection {
        let connection = try TestHTTPConnection(port: port, timeoutSeconds: 5, from: source)
        try connection.sendRequest("GET", "/api/rooms/lobby/events")
        let (status, _) = try connection.readHead()
        #expect(status == 200)
        return connection
    }

    /// Whether a request from `source` is answered (not closed unanswered).
    static func answered(_ port: UInt16, from source: String) -> Bool {
        guard let connection = try? TestHTTPConnection(port: port, timeoutSeconds: 5, from: source) else { return false }
        defer { connection.close() }
        guard (try? connection.sendRequest("GET", "/healthz")) != nil else { return false }
        return (try? connection.readResponse().status) == 200
    }

    /// Waits up to five seconds for `condition`.
    static func eventually(_ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(5)
        while Date() < end {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return condition()
    }

    @Test func anAddressAtItsLimitIsRefusedOnEveryPortAndOthersAreServed() throws {
        let server = try TestServer(maxConnectionsPerAddress: 3)
        let counts = try #require(server.server.connectionsPerAddress)
        let flooder = ConnectionSource.ipv4(inet_addr("127.0.0.2"))
        var held = [try Self.stream(server.port, from: "127.0.0.2"), try Self.stream(server.port, from: "127.0.0.2")]
        let line = try TestLineClient(port: server.tcpPort, from: "127.0.0.2")
        try line.write("iam:flood\n")
        #expect(try line.readLine() == "flood has joined")
        #expect(counts.count(flooder) == 3)

        // Its fourth connection, HTTP or raw TCP, is closed unanswered.
        let refused = try TestHTTPConnection(port: server.port, timeoutSeconds: 5, from: "127.0.0.2")
        try? refused.sendRequest("GET", "/healthz")
        #expect(refused.isClosedByServer())
        let refusedLine = try TestLineClient(port: server.tcpPort, readTimeoutSeconds: 5, from: "127.0.0.2")
        #expect(refusedLine.isClosedByServer())
        #expect(counts.refused == 2)

        // Another address is served on both.
        #expect(Self.answered(server.port, from: "127.0.0.3"))
        let other = try TestLineClient(port: server.tcpPort, from: "127.0.0.3")
        try other.write("iam:calm\n")
        #expect(try other.readLine() == "calm has joined")
        let metrics = try server.client.get("/metrics").text
        #expect(metrics.contains("switchboard_connections_refused_total{reason=\"per_address\"} 2"))

        // One of its connections closed, the address is served again.
        held.removeLast().close()
        #expect(Self.eventually { Self.answered(server.port, from: "127.0.0.2") })

        // Every count ends with its connection: none is left behind.
        held.forEach { $0.close() }
        line.close()
        other.close()
        #expect(Self.eventually { counts.sources == 0 }, "still counted: \(counts.count(flooder)) from 127.0.0.2")
    }

    @Test func loopbackIsNotLimitedByDefault() throws {
        let server = try TestServer()
        let counts = try #require(server.server.connectionsPerAddress)
        #expect(counts.limit == 1_000)
        #expect(!counts.limitsLoopback)
        let streams = try (0..<5).map { _ in try Self.stream(server.port, from: "127.0.0.2") }
        #expect(Self.answered(server.port, from: "127.0.0.2"))
        #expect(counts.sources == 0)
        streams.forEach { $0.close() }
    }
}
