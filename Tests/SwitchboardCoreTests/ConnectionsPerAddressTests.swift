#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import SwitchboardCore

@Suite("Connections per address")
struct ConnectionsPerAddressTests {
    /// The source of an IPv4 or IPv6 literal, through a socket address as a listener has it.
    static func source(_ text: String) -> ConnectionSource? {
        if text.contains(":") {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            guard inet_pton(AF_INET6, text, &address.sin6_addr) == 1 else { return nil }
            return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { ConnectionSource($0) } }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        guard inet_pton(AF_INET, text, &address.sin_addr) == 1 else { return nil }
        return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { ConnectionSource($0) } }
    }

    @Test func ipv4AddressesAreThemselvesAndIPv6OnesTheirSlash64() throws {
        #expect(Self.source("203.0.113.7") == Self.source("203.0.113.7"))
        #expect(Self.source("203.0.113.7") != Self.source("203.0.113.8"))
        // One subscriber's /64 is one source, whichever of its addresses connects.
        #expect(Self.source("2001:db8:1:2::1") == Self.source("2001:db8:1:2:ffff:ffff:ffff:fffe"))
        #expect(Self.source("2001:db8:1:2::1") != Self.source("2001:db8:1:3::1"))
        // An IPv4 address mapped into IPv6 is that IPv4 address.
        #expect(Self.source("::ffff:203.0.113.7") == Self.source("203.0.113.7"))
        guard case .ipv4 = try #require(Self.source("203.0.113.7")) else { Issue.record("not IPv4"); return }
    }

    @Test func loopbackAddressesAreKnown() throws {
        for text in ["127.0.0.1", "127.0.0.2", "127.255.0.9", "::1", "::ffff:127.0.0.1"] {
            #expect(Self.source(text)?.isLoopback == true, "\(text)")
        }
        for text in ["128.0.0.1", "126.255.255.255", "::2", "10.0.0.1", "2001:db8::1"] {
            #expect(Self.source(text)?.isLoopback == false, "\(text)")
        }
        // Each of 127/8 is a source of its own (when loopback is limited at all).
        #expect(Self.source("127.0.0.1") != Self.source("127.0.0.2"))
    }

    /// A transport that has only the address's text (raw TCP, WebSocket)
    /// finds the source libmicrohttpd's socket address gives, and so the
    /// same line at the store gate: a client is one caller on every way in.
    @Test func anAddressTextIsTheSourceItsSocketAddressIs() {
        for text in ["203.0.113.7", "127.0.0.2", "::1", "::ffff:203.0.113.7", "2001:db8:1:2::1", "fe80::1"] {
            #expect(ConnectionSource(text: text) == Self.source(text), "\(text)")
        }
        #expect(ConnectionSource(text: "unknown") == nil && ConnectionSource(text: "") == nil)
        #expect(StoreCaller.address(text: "2001:db8:1:2::1") == StoreCaller.address(text: "2001:db8:1:2:9::"))
        #expect(StoreCaller.address(text: "2001:db8:1:2::1") != StoreCaller.address(text: "2001:db8:1:3::1"))
        #expect(StoreCaller.address(text: "203.0.113.7") == StoreCaller.address(try! #require(Self.source("::ffff:203.0.113.7"))))
        // Distinct numbers for the kinds of source, none of them the server's or the admin's line.
        let numbers = ["203.0.113.7", "::1", "2001:db8::1", "0.0.0.0"].compactMap { ConnectionSource(text: $0)?.number }
        #expect(Set(numbers).count == 4 && numbers.allSatisfy { $0 > 1 })
        #expect(![StoreCaller.server, .admin].contains(StoreCaller.address(text: "unknown")))
    }

    @Test func aSocketAddressOfAnotherFamilyHasNoSource() {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let source = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { ConnectionSource($0) } }
        #expect(source == nil)
    }

    @Test func aSourceAtItsLimitIsRefusedUntilOneOfItsConnectionsCloses() throws {
        let counts = ConnectionsPerAddress(limit: 2)
        let (one, other) = (try #require(Self.source("198.51.100.1")), try #require(Self.source("198.51.100.2")))
        #expect(counts.admits(one))
        counts.opened(one)
        #expect(counts.open(one))
        #expect(!counts.admits(one))
        #expect(!counts.open(one))
        #expect(counts.count(one) == 2)
        #expect(counts.refused == 2)
        // Another address is not held by this one's connections.
        #expect(counts.open(other))
        counts.closed(one)
        #expect(counts.admits(one))
        #expect(counts.count(one) == 1)
        // A source with nothing open is forgotten; a close it never counted changes nothing.
        counts.closed(one)
        counts.closed(one)
        counts.closed(other)
        #expect(counts.sources == 0)
        #expect(counts.open(one) && counts.open(one) && !counts.open(one))
    }

    @Test func loopbackIsNotLimitedUnlessAsked() {
        let counts = ConnectionsPerAddress(limit: 1)
        let loopback = ConnectionSource.ipv4(inet_addr("127.0.0.1"))
        for _ in 0..<5 { #expect(counts.open(loopback) && counts.open(.ipv6Loopback)) }
        #expect(counts.sources == 0)
        #expect(counts.refused == 0)
        let limited = ConnectionsPerAddress(limit: 1, limitsLoopback: true)
        #expect(limited.open(loopback))
        #expect(!limited.open(loopback))
        limited.closed(loopback)
        #expect(limited.admits(loopback))
    }
}
