import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A plain blocking TCP socket on loopback with a read timeout: what a probe
/// needs to speak a line protocol or read a stream byte for byte.
final class BlockingSocket: @unchecked Sendable {  // one thread reads while another may close it at the end
    private let fd: Int32
    private var closed = false

    init(port: Int, readTimeoutMilliseconds: Int = 200) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestClientError(description: "socket: \(errno)") }
        var timeout = timeval(tv_sec: readTimeoutMilliseconds / 1000, tv_usec: Int((readTimeoutMilliseconds % 1000) * 1000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            Glibc.close(fd)
            closed = true
            throw TestClientError(description: "connect to \(port): \(String(cString: strerror(errno)))")
        }
    }

    deinit { close() }

    func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(fd)
    }

    func send(_ text: String) throws {
        var bytes = Array(text.utf8)
        while !bytes.isEmpty {
            let sent = Glibc.send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL))
            guard sent > 0 else { throw TestClientError(description: "send: \(errno)") }
            bytes.removeFirst(sent)
        }
    }

    /// What arrived within the read timeout (empty: nothing); nil once the peer closed.
    func readSome() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let count = recv(fd, &buffer, buffer.count, 0)
        if count == 0 { return nil }
        if count < 0 { return errno == EAGAIN || errno == EWOULDBLOCK ? [] : nil }
        return Array(buffer[..<count])
    }
}
