#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension HTTPDaemon {
    /// An IPv4 or IPv6 literal and a port as a socket address, or nil.
    static func socketAddress(host: String, port: UInt16) -> sockaddr_storage? {
        var storage = sockaddr_storage()
        let parsed = withUnsafeMutableBytes(of: &storage) { bytes -> Bool in
            if host.contains(":") {
                let address = bytes.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self)
                address.pointee.sin6_family = sa_family_t(AF_INET6)
                address.pointee.sin6_port = port.bigEndian
                return inet_pton(AF_INET6, host, &address.pointee.sin6_addr) == 1
            }
            let address = bytes.baseAddress!.assumingMemoryBound(to: sockaddr_in.self)
            address.pointee.sin_family = sa_family_t(AF_INET)
            address.pointee.sin_port = port.bigEndian
            return inet_pton(AF_INET, host, &address.pointee.sin_addr) == 1
        }
        return parsed ? storage : nil
    }
}
