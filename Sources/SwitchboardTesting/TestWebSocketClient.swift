import Foundation

/// A blocking WebSocket client (RFC 6455) over a ``TestHTTPConnection``:
/// the handshake, then frames written exactly as asked — masked or not,
/// with reserved bits, any opcode — so tests can send what a broken or
/// hostile client would.
public final class TestWebSocketClient: @unchecked Sendable {
    public let connection: TestHTTPConnection
    /// The handshake's answer.
    public let status: Int
    public let headers: [String: String]

    /// Connects and sends the upgrade request for `path`.
    public init(port: UInt16, path: String, key: String = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString(),
                extraHeaders: [(String, String)] = []) throws {
        connection = try TestHTTPConnection(port: port)
        let given = Set(extraHeaders.map { $0.0.lowercased() })
        let standard = [("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Key", key), ("Sec-WebSocket-Version", "13")]
        try connection.sendRequest("GET", path, headers: standard.filter { !given.contains($0.0.lowercased()) } + extraHeaders)
        (status, headers) = try connection.readHead()
    }

    /// One frame, as given (client frames are masked unless `masked` is false).
    public func send(opcode: UInt8, payload: [UInt8], fin: Bool = true, reservedBits: UInt8 = 0, masked: Bool = true) throws {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | reservedBits << 4 | opcode]
        let maskBit: UInt8 = masked ? 0x80 : 0
        switch payload.count {
        case 0..<126: frame.append(maskBit | UInt8(payload.count))
        case 126..<65536: frame += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: frame += [maskBit | 127] + (0..<8).map { UInt8(truncatingIfNeeded: UInt64(payload.count) >> (56 - 8 * UInt64($0))) }
        }
        if masked {
            let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
            frame += mask + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        } else {
            frame += payload
        }
        try connection.send(frame)
    }

    public func sendText(_ text: String) throws { try send(opcode: 0x1, payload: Array(text.utf8)) }

    /// The next frame from the server: its opcode and payload.
    public func readFrame() throws -> (opcode: UInt8, payload: [UInt8]) {
        let head = try connection.readExactly(2)
        var length = Int(head[1] & 0x7F)
        if length == 126 { length = try connection.readExactly(2).reduce(0) { $0 << 8 | Int($1) } }
        if length == 127 { length = try connection.readExactly(8).reduce(0) { $0 << 8 | Int($1) } }
        return (head[0] & 0x0F, try connection.readExactly(length))
    }

    /// The next text frame's payload (answering server pings on the way).
    public func readText() throws -> String {
        while true {
            let frame = try readFrame()
            switch frame.opcode {
            case 0x1: return String(decoding: frame.payload, as: UTF8.self)
            case 0x9: try send(opcode: 0xA, payload: frame.payload)
            case 0x8: throw TestClientError(description: "closed with \(Self.closeCode(frame.payload).map(String.init) ?? "no code")")
            default: continue
            }
        }
    }

    /// The next text frame as a JSON object.
    public func readJSON() throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(try readText().utf8)) as? [String: Any] ?? [:]
    }

    /// Reads until the server's close frame; its code (nil when it had none).
    public func readCloseCode() throws -> UInt16? {
        try readClose().code
    }

    /// Reads until the server's close frame; its code (nil when it had none) and reason.
    public func readClose() throws -> (code: UInt16?, reason: String) {
        while true {
            let frame = try readFrame()
            if frame.opcode == 0x8 { return (Self.closeCode(frame.payload), String(decoding: frame.payload.dropFirst(2), as: UTF8.self)) }
        }
    }

    private static func closeCode(_ payload: [UInt8]) -> UInt16? {
        payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil
    }
}
