import Foundation

/// A stored message with its wire forms, encoded once when it is published:
/// the same bytes then go to every subscriber on every transport.
public final class EncodedMessage: Sendable {
    /// The message itself.
    public let message: Message
    /// Its JSON object, e.g. `{"id":42,"room":"lobby",...}`.
    public let json: [UInt8]
    /// Its complete SSE event: `id: 42\nevent: message\ndata: {json}\n\n`.
    public let sseFrame: [UInt8]
    /// Its line on the raw TCP protocol, e.g. `luke:hi\n`.
    public let line: [UInt8]

    public init(_ message: Message) {
        self.message = message
        let json = MessageJSON.encode(message)
        self.json = json
        self.sseFrame = SSEFormat.event(id: message.id, kind: message.kind.rawValue, data: json)
        self.line = LineFormat.line(for: message)
    }

    /// The message's id.
    public var id: Int64 { message.id }
}
