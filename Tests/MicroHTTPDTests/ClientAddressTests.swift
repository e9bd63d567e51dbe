import SwitchboardLoad
import Testing
@testable import MicroHTTPD

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// ``HTTPExchange/clientAddress`` through a real daemon: what the
/// throttles, the poller count and the logs key a client by.
@Suite("The client's address, as a daemon sees it")
struct ClientAddressTests {
    /// Answers every request with the client's address as its body.
    final class AddressAnswer: HTTPRequestHandler {
        func handle(_ exchange: any HTTPExchanging) -> HTTPHandlerResult {
            .respond(HTTPResponse(status: 200, body: .bytes(Array((exchange.clientAddress ?? "none").utf8))))
        }
    }

    @Test func anIPv4ClientIsNamedByItsDottedAddress() throws {
        let daemon = try HTTPDaemon(configuration: HTTPDaemonConfiguration(port: 0, threadPoolSize: 1), handler: AddressAnswer())
        defer { daemon.stop() }
        for source in ["127.0.0.1", "127.0.0.5", "127.23.200.9", "127.100.10.255"] {
            let connection = try TestHTTPConnection(port: daemon.port, from: source)
            try connection.sendRequest("GET", "/")
            #expect(String(decoding: try connection.readResponse().body, as: UTF8.self) == source)
        }
    }

    @Test func anIPv6ClientIsNamedAsInetNtopWritesIt() throws {
        var configuration = HTTPDaemonConfiguration(port: 0, threadPoolSize: 1)
        configuration.host = "::1"
        let daemon = try HTTPDaemon(configuration: configuration, handler: AddressAnswer())
        defer { daemon.stop() }
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = daemon.port.bigEndian
        address.sin6_addr = in6addr_loopback
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        }
        try #require(connected == 0)
        let request = Array("GET / HTTP/1.1\r\nHost: [::1]\r\nConnection: close\r\n\r\n".utf8)
        #expect(request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == request.count)
        var answer: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 4096)
        while case let read = recv(fd, &chunk, chunk.count, 0), read > 0 { answer += chunk[..<read] }
        let text = String(decoding: answer, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200"), "\(text)")
        #expect(text.hasSuffix("\r\n\r\n::1"), "\(text)")
    }
}
