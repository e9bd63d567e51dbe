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
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { IPv4Text.dotted($0.pointee.sin_addr) }
        case AF_INET6:
            return withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN)) { text in
                address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                    var ip = ipv6.pointee.sin6_addr
                    guard let written = inet_ntop(AF_INET6, &ip, text.baseAddress, socklen_t(text.count)) else { return nil }
                    return String(cString: written)
                }
            }
        default:
            return nil
        }
    }

    /// The client's socket address, valid while the exchange lives.
    public var clientSocketAddress: UnsafePointer<sockaddr>? {
        sb_connection_client_address(connection)
    }
}
