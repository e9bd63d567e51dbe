import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A raw TCP client as `nc` or the DogeChat app would be: writes bytes exactly
/// as given, reads `\n`-terminated lines, with a deadline on every read.
public final class TestLineClient: @unchecked Sendable {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var closed = false

    /// - Parameter receiveBuffer: a small kernel receive buffer, for a client
    ///   meant to read slowly. Set before connecting: set after, Linux reopens
    ///   the shrunken window only on its persist timer, and a later catch-up
    ///   crawls at tens of KB/s.
    /// - Parameter source: the address to connect from (any of 127.0.0.0/8).
    public init(port: Int, readTimeoutSeconds: Int = 10, receiveBuffer: Int32? = nil, from source: String? = nil) throws {
        fd = try LoopbackSocket.connect(port: port, readTimeoutMicroseconds: readTimeoutSeconds * 1_000_000,
                                        receiveBuffer: receiveBuffer, noDelay: true, from: source)
    }

    deinit { close() }

    public func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(fd)
    }

    /// One write of exactly these bytes.
    public func write(_ text: String) throws { try write(Array(text.utf8)) }

    public func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw TestClientError(description: "send failed: \(errno)") }
            offset += sent
        }
    }

    /// Writes all of `bytes` if the socket takes any of them now (finishing
    /// a partial write); false when it would block: the server is not reading.
    public func tryWrite(_ bytes: [UInt8]) throws -> Bool {
        let sent = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        if sent < 0 {
            if errno == EAGAIN || errno == EWOULDBLOCK { return false }
            throw TestClientError(description: "send failed: \(errno)")
        }
        if sent < bytes.count { try write(Array(bytes[sent...])) }
        return true
    }

    /// The next line, without its `\n`.
    public func readLine() throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { throw TestClientError(description: "connection closed by server") }
            if count < 0 { throw TestClientError(description: "recv: \(String(cString: strerror(errno)))") }
            buffer += chunk[..<count]
        }
    }

    /// What the DogeChat app shows for its next read: it reads up to 4,096
    /// bytes at once and shows each read as one message, split on the first
    /// `:` into sender and text (a join line has no `:`: sender nil).
    public func readAsTheApp() throws -> (sender: String?, text: String) {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count == 0 { throw TestClientError(description: "connection closed by server") }
        if count < 0 { throw TestClientError(description: "recv: \(String(cString: strerror(errno)))") }
        let read = String(decoding: chunk[..<count], as: UTF8.self)
        guard let colon = read.firstIndex(of: ":") else { return (nil, read) }
        return (String(read[..<colon]), String(read[read.index(after: colon)...]))
    }

    public func readLines(_ count: Int) throws -> [String] {
        try (0..<count).map { _ in try readLine() }
    }

    /// Reads lines until one satisfies `predicate`; returns it.
    public func readUntil(_ predicate: (String) -> Bool) throws -> String {
        while true {
            let line = try readLine()
            if predicate(line) { return line }
        }
    }

    /// Reads and throws away everything the server sends until it closes the
    /// connection (a client that reads as fast as it can, e.g. a flooder
    /// reading back its own lines); returns the bytes read.
    @discardableResult
    public func discardUntilClosed() -> Int {
        var chunk = [UInt8](repeating: 0, count: 65536)
        var total = buffer.count
        buffer.removeAll()
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 { total += count; continue }
            if count < 0, errno == EAGAIN || errno == EINTR { continue }
            return total
        }
    }

    /// Whether the server closed the connection (reading what is left first).
    /// When a read times out, one byte is written: a connection the server's
    /// kernel no longer holds answers it with a reset. (A server that closes a
    /// client which stopped reading leaves its unsent bytes to the kernel,
    /// which may give up on them without a word after a while.)
    public func isClosedByServer() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        var probed = false
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 { continue }
            if count == 0 { return true }
            if errno == ECONNRESET || errno == EPIPE { return true }
            guard errno == EAGAIN || errno == EWOULDBLOCK, !probed else { return false }
            probed = true
            var probe: UInt8 = 10
            if send(fd, &probe, 1, Int32(MSG_NOSIGNAL)) < 0 { return errno == ECONNRESET || errno == EPIPE }
        }
    }
}
