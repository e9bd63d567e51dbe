import NIOCore
import NIOWebSocket

/// What NIOWebSocket's decoder leaves to the server (RFC 6455, 5.1–5.2): a
/// client frame must be masked, use no reserved bit (no extension is
/// negotiated) and a defined opcode. Anything else is a protocol error (1002).
final class ClientFrameCheck: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    /// Why a frame was refused.
    struct Refusal: Error {
        let reason: String
    }

    private static let defined: Set<UInt8> = [0x0, 0x1, 0x2, 0x8, 0x9, 0xA]

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        if frame.maskKey == nil {
            context.fireErrorCaught(Refusal(reason: "client frames must be masked"))
        } else if !frame.reservedBits.isEmpty {
            context.fireErrorCaught(Refusal(reason: "reserved bits set without an extension"))
        } else if !Self.defined.contains(UInt8(webSocketOpcode: frame.opcode)) {
            context.fireErrorCaught(Refusal(reason: "undefined opcode \(UInt8(webSocketOpcode: frame.opcode))"))
        } else {
            context.fireChannelRead(data)
        }
    }
}
