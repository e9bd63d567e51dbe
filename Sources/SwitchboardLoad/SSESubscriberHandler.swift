import Dispatch
import NIOCore

/// One SSE subscriber connection: sends the GET, parses the stream, records ids.
public final class SSESubscriberHandler: ChannelInboundHandler {
    public typealias InboundIn = ByteBuffer
    public typealias OutboundOut = ByteBuffer

    private let request: String
    private let record: StreamRecord
    private var parser = SSEStreamParser()

    public init(host: String, path: String, record: StreamRecord) {
        request = "GET \(path) HTTP/1.1\r\nHost: \(host)\r\nAccept: text/event-stream\r\n\r\n"
        self.record = record
    }

    public func channelActive(context: ChannelHandlerContext) {
        record.start(request, on: context)
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        record.addBytes(buffer.readableBytes)
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

    public func channelInactive(context: ChannelHandlerContext) {
        record.markEnded()
    }

    public func errorCaught(context: ChannelHandlerContext, error: Error) {
        record.fail(error, on: context)
    }
}
