import Dispatch
import Foundation
import NIOCore

/// One long-polling client of Nchan on a keep-alive connection: Nchan's own
/// protocol, where the next request sends back the last answer's
/// `Last-Modified` and `Etag` as `If-Modified-Since` and `If-None-Match`.
/// With `nchan_longpoll_multipart_response raw` (as `Scripts/peers.sh`
/// configures it) an answer carries every message available, one per line,
/// like a Switchboard long poll; records the id in each message's JSON.
public final class NchanLongPollHandler: ChannelInboundHandler {
    public typealias InboundIn = ByteBuffer
    public typealias OutboundOut = ByteBuffer

    private let host: String
    private let path: String
    private let record: StreamRecord
    private var lastModified: String?
    private var etag: String?
    private var framer = HTTPResponseFramer()

    public init(host: String, path: String, record: StreamRecord) {
        self.host = host
        self.path = path
        self.record = record
    }

    public func channelActive(context: ChannelHandlerContext) {
        request(context: context)
        record.markOpened()
    }

    private func request(context: ChannelHandlerContext) {
        var text = "GET \(path) HTTP/1.1\r\nHost: \(host)\r\n"
        if let lastModified { text += "If-Modified-Since: \(lastModified)\r\n" }
        if let etag { text += "If-None-Match: \(etag)\r\n" }
        text += "\r\n"
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: text)), promise: nil)
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let chunk = unwrapInboundIn(data)
        record.addBytes(chunk.readableBytes)
        framer.append(chunk.readableBytesView)
        let now = DispatchTime.now().uptimeNanoseconds
        while let (head, headers, body) = framer.next().map({ ($0.head, $0.headers, $0.body) }) {
            let ids = body.split(separator: 10).compactMap { line in
                ((try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any]).flatMap { ($0["id"] as? NSNumber)?.int64Value }
            }
            if head.hasPrefix("HTTP/1.1 200"), !ids.isEmpty {
                for id in ids { record.received(id, at: now) }
                record.addRequest(empty: false)
                lastModified = headers["last-modified"] ?? lastModified
                etag = headers["etag"] ?? etag
            } else if head.hasPrefix("HTTP/1.1 304") || head.hasPrefix("HTTP/1.1 408") {
                record.addRequest(empty: true)
            } else {
                record.markFailed("long poll answered: \(head.prefix(40))")
                context.close(promise: nil)
                return
            }
            request(context: context)
        }
    }

    public func errorCaught(context: ChannelHandlerContext, error: Error) {
        record.fail(error, on: context)
    }
}
