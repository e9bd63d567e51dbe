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

    /// The client's socket address, valid while the exchange lives.
    public var clientSocketAddress: UnsafePointer<sockaddr>? {
        sb_connection_client_address(connection)
    }
}
