import CMicroHTTPD

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Who is asking: the client's address, from the connection's socket address.
extension HTTPExchange {
    /// The client's IP address, e.g. `127.0.0.1` or `::1`.
    public var clientAddress: String? {
        guard let address = sb_connection_client_address(connection) else { return nil }
        var text = [CChar](repeating: 0, count: 64)
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                var ip = ipv4.pointee.sin_addr
                _ = inet_ntop(AF_INET, &ip, &text, socklen_t(text.count))
            }
        case AF_INET6:
            address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                var ip = ipv6.pointee.sin6_addr
                _ = inet_ntop(AF_INET6, &ip, &text, socklen_t(text.count))
            }
        default:
            return nil
        }
        return text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// The client's IP address as one number, with no text made: IPv4's
    /// four bytes as they are, IPv6's sixteen hashed; 0 for none.
    public var clientAddressNumber: UInt64 {
        guard let address = sb_connection_client_address(connection) else { return 0 }
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt64($0.pointee.sin_addr.s_addr) | 1 << 32 }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                var hasher = Hasher()
                withUnsafeBytes(of: ipv6.pointee.sin6_addr) { hasher.combine(bytes: $0) }
                return UInt64(bitPattern: Int64(hasher.finalize()))
            }
        default:
            return 0
        }
    }
}
