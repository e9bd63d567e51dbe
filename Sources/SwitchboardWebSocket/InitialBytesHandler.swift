import NIOCore

/// Replays the bytes libmicrohttpd had already read past the handshake as
/// the connection's first read, before anything read from the socket.
final class InitialBytesHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    private let bytes: [UInt8]

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    func channelActive(context: ChannelHandlerContext) {
        context.fireChannelActive()
        if !bytes.isEmpty { context.fireChannelRead(wrapInboundOut(context.channel.allocator.buffer(bytes: bytes))) }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }
}
