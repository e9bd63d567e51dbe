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
            self = .ipv4(address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr })
        case AF_INET6:
            self = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin6_addr) { Self(ipv6: $0) }
            }
        default:
            return nil
        }
    }

    /// The source of an address's text (`203.0.113.7`, `2001:db8::1`); nil when it is not one.
    public init?(text: String) {
        var ipv4 = in_addr(), ipv6 = in6_addr()
        if inet_pton(AF_INET, text, &ipv4) == 1 {
            self = .ipv4(ipv4.s_addr)
        } else if inet_pton(AF_INET6, text, &ipv6) == 1 {
            self = withUnsafeBytes(of: ipv6) { Self(ipv6: $0) }
        } else {
            return nil
        }
    }

    /// An IPv6 address's sixteen bytes.
    private init(ipv6 bytes: UnsafeRawBufferPointer) {
        let high = bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self)
        let low = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        if high == 0, low >> 32 == 0xffff {
            self = .ipv4(bytes.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
        } else if high == 0, low == 1 {
            self = .ipv6Loopback
        } else {
            self = .ipv6Network(high)
        }
    }

    /// The source as one number, no two sources alike among addresses in
    /// use: an IPv4 address's bytes above bit 32, an IPv6 network's 64 bits.
    public var number: UInt64 {
        switch self {
        case .ipv4(let raw): UInt64(raw) | 1 << 32
        case .ipv6Network(let network): network
        case .ipv6Loopback: 1 << 33
        }
    }
}
