import Dispatch
import Foundation

/// A host name's addresses, resolved off every thread that serves
/// connections (getaddrinfo blocks): what a push endpoint's host must all
/// be public for.
enum HostAddresses {
    private static let queue = DispatchQueue(label: "switchboard.push.resolve", attributes: .concurrent)

    /// Every IPv4 (4 bytes) and IPv6 (16 bytes) address of `host`; empty when it does not resolve.
    static func resolve(_ host: String) async -> [[UInt8]] {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: resolveNow(host)) }
        }
    }

    private static func resolveNow(_ host: String) -> [[UInt8]] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0 else { return [] }
        defer { freeaddrinfo(list) }
        var addresses: [[UInt8]] = []
        var entry = list
        while let current = entry {
            if let address = current.pointee.ai_addr {
                switch Int32(current.pointee.ai_family) {
                case AF_INET:
                    address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                        addresses.append(withUnsafeBytes(of: v4.pointee.sin_addr) { Array($0) })
                    }
                case AF_INET6:
                    address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                        addresses.append(withUnsafeBytes(of: v6.pointee.sin6_addr) { Array($0) })
                    }
                default: break
                }
            }
            entry = current.pointee.ai_next
        }
        return addresses
    }

    /// Every address of `host` as text (`8.8.8.8`, `2001:4860::8888`), in
    /// the resolver's order, when all are public; nil when one is not or
    /// there is none.
    static func publicAddresses(_ host: String) async -> [String]? {
        publicAddresses(of: await resolve(host))
    }

    /// `addresses` (4 or 16 bytes each) as text when all are public; nil when one is not or there is none.
    static func publicAddresses(of addresses: [[UInt8]]) -> [String]? {
        guard !addresses.isEmpty,
              addresses.allSatisfy({ $0.count == 4 ? PublicAddress.isPublic(ipv4: $0) : PublicAddress.isPublic(ipv6: $0) })
        else { return nil }
        return addresses.map(text)
    }

    /// An address's presentation form (`inet_ntop`).
    static func text(_ address: [UInt8]) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = address.count == 4 ? AF_INET : AF_INET6
        _ = address.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &buffer, socklen_t(buffer.count)) }
        // Up to the NUL inet_ntop wrote (the array form of String(cString:) is deprecated).
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
