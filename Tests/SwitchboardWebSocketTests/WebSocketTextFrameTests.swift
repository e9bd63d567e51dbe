import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing
@testable import SwitchboardCore
@testable import SwitchboardWebSocket

@Suite("A message's WebSocket frame, encoded once")
struct WebSocketTextFrameTests {
    /// What SwiftNIO's own encoder writes for the same text frame, byte for
    /// byte, at each edge of the three length forms (7 bits, 16, 64).
    @Test(arguments: [0, 1, 125, 126, 127, 65_535, 65_536, 70_000])
    func theBytesAreWhatNIOsEncoderWrites(length: Int) throws {
        let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0 % 95 + 32) }
        let channel = EmbeddedChannel(handler: WebSocketFrameEncoder())
        defer { _ = try? channel.finish() }
        let frame = WebSocketFrame(fin: true, opcode: .text, data: channel.allocator.buffer(bytes: payload))
        try channel.writeOutbound(frame)
        var written: [UInt8] = []
        while var buffer = try channel.readOutbound(as: ByteBuffer.self) {
            written += buffer.readBytes(length: buffer.readableBytes) ?? []
        }
        #expect(WebSocketTextFrame.frame(text: payload) == written)
    }

    @Test func aMessagesFrameCarriesItsJSON() {
        let message = EncodedMessage(Message(id: 7, room: "lobby", user: "leia", text: "hi", kind: .message, ts: 1))
        let frame = WebSocketTextFrame.frame(for: message)
        #expect(frame.count == message.json.count + 2 && Array(frame.dropFirst(2)) == message.json)
        #expect(message.frame(WebSocketTextFrame.self) == frame)  // cached once, the same bytes for every reader
    }
}
