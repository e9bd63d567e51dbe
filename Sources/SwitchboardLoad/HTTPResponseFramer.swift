import Foundation

/// Cuts a keep-alive connection's bytes into HTTP/1.1 responses with a
/// `Content-Length`, for the load clients that poll.
struct HTTPResponseFramer {
    /// One whole response.
    struct Response {
        /// The status line and headers, as sent.
        var head: String
        /// Header values by lower-cased name.
        var headers: [String: String]
        var body: Data
    }

    private var buffer: [UInt8] = []
    private static let headEnd = Array("\r\n\r\n".utf8)

    /// Takes bytes as they arrive.
    mutating func append(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next whole response, or nil until more bytes arrive.
    mutating func next() -> Response? {
        guard let end = buffer.firstRange(of: Self.headEnd)?.lowerBound else { return nil }
        let head = String(decoding: buffer[..<end], as: UTF8.self)
        var headers: [String: String] = [:]
        for line in head.split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = headers["content-length"].flatMap(Int.init) ?? 0
        let total = end + Self.headEnd.count + length
        guard buffer.count >= total else { return nil }
        let body = Data(buffer[(end + Self.headEnd.count)..<total])
        buffer.removeFirst(total)
        return Response(head: head, headers: headers, body: body)
    }
}
