import Foundation
import SwitchboardCore

#if canImport(Glibc)
import Glibc
#endif

/// A blocking HTTP/1.1 client over a real TCP socket on loopback, as curl or a
/// browser would talk to the server: raw request bytes out, a parsed response
/// (Content-Length or chunked) in. Every read has a timeout so a broken server
/// fails a test instead of hanging it.
public final class TestHTTPConnection {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var closed = false

    /// - Parameter source: the address to connect from (see ``LoopbackSocket/connect(port:readTimeoutMicroseconds:receiveBuffer:noDelay:from:)``).
    public init(port: UInt16, timeoutSeconds: Int = 15, from source: String? = nil) throws {
        fd = try LoopbackSocket.connect(port: Int(port), readTimeoutMicroseconds: timeoutSeconds * 1_000_000, from: source)
    }

    deinit { close() }

    public func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(fd)
    }

    /// Closes abruptly (RST), like a client whose process died.
    public func reset() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close()
    }

    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw TestClientError(description: "send failed: \(errno)") }
            offset += sent
        }
    }

    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Sends a request. `body` gets a Content-Length unless `headers` has a Transfer-Encoding.
    public func sendRequest(_ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil) throws {
        // The path exactly as given (`//`, `/./`, `%2F` reach the server as they are); Host unless one is given.
        var head = "\(method) \(path) HTTP/1.1\r\n"
        if !headers.contains(where: { $0.0.lowercased() == "host" }) { head += "Host: 127.0.0.1\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body, !headers.contains(where: { $0.0.lowercased() == "transfer-encoding" }) {
            head += "Content-Length: \(body.count)\r\n"
        }
        head += "\r\n"
        try send(Array(head.utf8) + (body ?? []))
    }

    /// Reads one whole response.
    public func readResponse(method: String = "GET") throws -> TestResponse {
        var (status, headers) = try readHead()
        while status == 100 { (status, headers) = try readHead() }
        if method == "HEAD" { return TestResponse(status: status, headers: headers, body: []) }
        if headers["transfer-encoding"]?.lowercased() == "chunked" {
            var body: [UInt8] = []
            while let chunk = try readChunk() { body += chunk }
            return TestResponse(status: status, headers: headers, body: body)
        }
        if let length = headers["content-length"].flatMap(Int.init) {
            return TestResponse(status: status, headers: headers, body: try readExactly(length))
        }
        return TestResponse(status: status, headers: headers, body: try readToEnd())
    }

    /// Reads a status line and headers.
    public func readHead() throws -> (Int, [String: String]) {
        let statusLine = try readLine()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else {
            throw TestClientError(description: "bad status line: \(statusLine)")
        }
        var headers: [String: String] = [:]
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            if let colon = line.firstIndex(of: ":") {
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return (status, headers)
    }

    /// Reads one chunk of a chunked body; nil at the terminating chunk.
    public func readChunk() throws -> [UInt8]? {
        let sizeLine = try readLine()
        guard let size = Int(sizeLine.split(separator: ";")[0], radix: 16) else {
            throw TestClientError(description: "bad chunk size: \(sizeLine)")
        }
        if size == 0 {
            while try !readLine().isEmpty {}
            return nil
        }
        let chunk = try readExactly(size)
        _ = try readLine()
        return chunk
    }

    private var sseText = ""
    /// No event read may go on past this moment (keepalive comments would
    /// otherwise keep a reader waiting for a missing event forever).
    public var deadline = Date().addingTimeInterval(60)

    /// Reads SSE events from a chunked event stream until `count` events (not
    /// comments) have arrived. Comments are collected into `comments`.
    public func readEvents(_ count: Int, comments: inout [String]) throws -> [TestSSEEvent] {
        var events: [TestSSEEvent] = []
        while events.count < count {
            if Date() > deadline {
                throw TestClientError(description: "deadline passed after \(events.count) of \(count) events")
            }
            if let range = sseText.range(of: "\n\n") {
                let block = String(sseText[..<range.lowerBound])
                sseText.removeSubrange(..<range.upperBound)
                var event = TestSSEEvent(id: nil, event: nil, data: "")
                var isEvent = false
                var dataLines: [String] = []
                for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
                    if line.hasPrefix(":") { comments.append(String(line)); continue }
                    let field = line.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
                    var value = line.count > field.count ? String(line.dropFirst(field.count + 1)) : ""
                    if value.hasPrefix(" ") { value.removeFirst() }
                    switch field {
                    case "id": event.id = value; isEvent = true
                    case "event": event.event = value; isEvent = true
                    case "data": dataLines.append(value); isEvent = true
                    default: break
                    }
                }
                event.data = dataLines.joined(separator: "\n")
                if isEvent { events.append(event) }
                continue
            }
            guard let chunk = try readChunk() else {
                throw TestClientError(description: "stream ended after \(events.count) of \(count) events")
            }
            sseText += String(decoding: chunk, as: UTF8.self)
        }
        return events
    }

    public func readEvents(_ count: Int) throws -> [TestSSEEvent] {
        var comments: [String] = []
        return try readEvents(count, comments: &comments)
    }

    /// True when the server closed the stream cleanly (terminating chunk, then EOF).
    public func readStreamEnd() throws -> Bool {
        while let chunk = try readChunk() {
            sseText += String(decoding: chunk, as: UTF8.self)
        }
        return true
    }

    /// Whether the server has closed the connection (EOF) within the read timeout.
    public func isClosedByServer() -> Bool {
        var byte: UInt8 = 0
        while true {
            let count = recv(fd, &byte, 1, 0)
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count == 0 { throw TestClientError(description: "connection closed by server") }
        if count < 0 { throw TestClientError(description: "recv failed: \(String(cString: strerror(errno)))") }
        buffer += chunk[..<count]
    }

    private func readLine() throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                var line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                if line.last == 13 { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            try fill()
        }
    }

    /// Waits until at least `count` bytes have come, without taking them:
    /// what reads next reads them as usual.
    public func awaitBytes(_ count: Int) throws {
        while buffer.count < count { try fill() }
    }

    /// Exactly `count` bytes (a WebSocket frame's, for instance).
    public func readExactly(_ count: Int) throws -> [UInt8] {
        while buffer.count < count { try fill() }
        let out = Array(buffer[..<count])
        buffer.removeSubrange(..<count)
        return out
    }

    private func readToEnd() throws -> [UInt8] {
        while true {
            do { try fill() } catch { break }
        }
        defer { buffer = [] }
        return buffer
    }
}
