import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Publishes over one keep-alive HTTP connection with plain blocking sockets,
/// returning the id of each stored message. Used by one thread at a time.
public final class BlockingPublisher: @unchecked Sendable {
    private let fd: Int32
    private let host: String
    private var buffer: [UInt8] = []

    public init(host: String, port: UInt16) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        self.host = host
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr(host)
        var noDelay: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw BenchError("publisher could not connect: \(String(cString: strerror(errno)))") }
    }

    deinit { close(fd) }

    /// POSTs one message and returns its id.
    public func publish(room: String, user: String, text: String) throws -> Int64 {
        let body = "user=\(user)&text=\(text)"
        let request = "POST /api/rooms/\(room)/messages HTTP/1.1\r\nHost: \(host)\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        let bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw BenchError("publisher send failed") }
            sent += count
        }
        // Read the head, then Content-Length bytes.
        while true {
            if let end = buffer.firstRange(of: Array("\r\n\r\n".utf8))?.lowerBound {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                while buffer.count < end + 4 + length { try fill() }
                let body = String(decoding: buffer[(end + 4)..<(end + 4 + length)], as: UTF8.self)
                buffer.removeFirst(end + 4 + length)
                guard head.hasPrefix("HTTP/1.1 201"), let idRange = body.range(of: #""id":"#) else {
                    throw BenchError("publish refused: \(head.prefix(40)) \(body)")
                }
                let digits = body[idRange.upperBound...].prefix { $0.isNumber }
                return Int64(digits) ?? -1
            }
            try fill()
        }
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw BenchError("publisher connection closed") }
        buffer += chunk[..<count]
    }

}
