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
        fd = try LoopbackSocket.connect(port: port, readTimeoutMicroseconds: readTimeoutMilliseconds * 1000)
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
