import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A blocking TCP socket connected to a port on loopback, for the test and
/// load clients. The descriptor is the caller's only once connected: a failed
/// connect closes it here, once (a caller that closed it again could hit a
/// server connection just given the same number: libmicrohttpd then aborts,
/// "Failed to remove FD from epoll set").
public enum LoopbackSocket {
    /// - Parameters:
    ///   - readTimeoutMicroseconds: how long a read may wait.
    ///   - receiveBuffer: a small kernel receive buffer, set before connecting
    ///     (set after, Linux reopens the shrunken window only on its persist timer).
    ///   - noDelay: send small writes at once (TCP_NODELAY).
    ///   - source: the address to connect from (any of 127.0.0.0/8: another client as the server sees it; of `host`'s family).
    ///   - host: the server's loopback address, IPv4 (`127.0.0.1` unless said) or IPv6 (`::1`).
    public static func connect(port: Int, readTimeoutMicroseconds: Int, receiveBuffer: Int32? = nil,
                               noDelay: Bool = false, from source: String? = nil, host: String = "127.0.0.1") throws -> Int32 {
        let family = host.contains(":") ? AF_INET6 : AF_INET
        let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestClientError(description: "socket: \(String(cString: strerror(errno)))") }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var timeout = timeval(tv_sec: readTimeoutMicroseconds / 1_000_000, tv_usec: readTimeoutMicroseconds % 1_000_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if noDelay {
            var on: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        if let source {
            let bound = withAddress(source, port: 0) { bind(fd, $0, $1) }
            guard bound == 0 else {
                let error = errno
                Glibc.close(fd)
                throw TestClientError(description: "bind to \(source): \(String(cString: strerror(error)))")
            }
        }
        let result = withAddress(host, port: port) { Glibc.connect(fd, $0, $1) }
        guard result == 0 else {
            let error = errno
            Glibc.close(fd)
            throw TestClientError(description: "connect to \(port): \(String(cString: strerror(error)))")
        }
        return fd
    }

    /// Calls `body` with `host` (IPv4, or IPv6 when it has a colon) and `port` as a socket address and its length.
    private static func withAddress(_ host: String, port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        func call<Address>(_ address: inout Address) -> Int32 {
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<Address>.size)) }
            }
        }
        if host.contains(":") {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(port).bigEndian
            inet_pton(AF_INET6, host, &address.sin6_addr)
            return call(&address)
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr(host)
        return call(&address)
    }
}
