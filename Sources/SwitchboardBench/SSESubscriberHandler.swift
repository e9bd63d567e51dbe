import Dispatch
import NIOCore

/// One SSE subscriber connection: sends the GET, parses the stream, records ids.
final class SSESubscriberHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let request: String
    private let record: StreamRecord
    private var parser = SSEStreamParser()

    init(host: String, path: String, record: StreamRecord) {
        request = "GET \(path) HTTP/1.1\r\nHost: \(host)\r\nAccept: text/event-stream\r\n\r\n"
        self.record = record
    }

    func channelActive(context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: request)), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        let now = DispatchTime.now().uptimeNanoseconds
        let wasOpened = parser.opened
        buffer.withUnsafeReadableBytes { bytes in
            parser.feed(bytes) { id in record.received(id, at: now) }
        }
        if !wasOpened, parser.opened {
            if parser.status == 200 { record.markOpened() } else { record.markFailed("status \(parser.status ?? 0)") }
        }
        if parser.ended { record.markEnded() }
    }

    func channelInactive(context: ChannelHandlerContext) {
        record.markEnded()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        record.markFailed("\(error)")
        context.close(promise: nil)
    }
}
