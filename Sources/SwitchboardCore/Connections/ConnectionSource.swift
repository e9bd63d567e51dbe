#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a connection comes from, as far as a limit per address goes: an
/// IPv4 address, or the /64 network of an IPv6 one (what one subscriber is
/// given: 2^64 addresses to open connections from).
public enum ConnectionSource: Hashable, Sendable {
    /// An IPv4 address, its four bytes as they are in the socket address.
    case ipv4(UInt32)
    /// An IPv6 address's first 64 bits, in the socket address's order.
    case ipv6Network(UInt64)
    /// `::1`.
    case ipv6Loopback

    /// Whether this is the machine itself (127.0.0.0/8, `::1`): a reverse
    /// proxy, a local tool, a benchmark.
    public var isLoopback: Bool {
        switch self {
        case .ipv4(let raw): UInt32(bigEndian: raw) >> 24 == 127
        case .ipv6Loopback: true
        case .ipv6Network: false
        }
    }

    /// The source of a socket address; nil when it is neither IPv4 nor IPv6.
    /// An IPv4 address mapped into IPv6 (`::ffff:a.b.c.d`) is that IPv4 address.
    public init?(_ address: UnsafePointer<sockaddr>) {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            let raw = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr }
            self.init(ipv4: raw)
        case AF_INET6:
            let bytes = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
            }
            self.init(ipv6: bytes)
        default:
            return nil
        }
    }

    /// An IPv4 address's four bytes, in network order as `s_addr` holds them.
    public init(ipv4 raw: UInt32) {
        self = .ipv4(raw)
    }

    /// An IPv6 address's sixteen bytes.
    public init(ipv6 bytes: [UInt8]) {
        let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff
        if mapped {
            self.init(ipv4: bytes[12..<16].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })
        } else if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 {
            self = .ipv6Loopback
        } else {
            self = .ipv6Network(bytes[0..<8].withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) })
        }
    }
}
