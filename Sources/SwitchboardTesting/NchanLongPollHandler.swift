import Dispatch
import Foundation
import NIOCore

/// One long-polling client of Nchan on a keep-alive connection: Nchan's own
/// protocol, where each answer is one message and the next request sends
/// back its `Last-Modified` and `Etag` as `If-Modified-Since` and
/// `If-None-Match`. Records the id in each message's JSON body.
public final class NchanLongPollHandler: ChannelInboundHandler {
    public typealias InboundIn = ByteBuffer
    public typealias OutboundOut = ByteBuffer

    private let host: String
    private let path: String
    private let record: StreamRecord
    private var lastModified: String?
    private var etag: String?
    private var buffer: [UInt8] = []

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
        buffer.append(contentsOf: chunk.readableBytesView)
        let now = DispatchTime.now().uptimeNanoseconds
        while let headEnd = buffer.firstRange(of: Array("\r\n\r\n".utf8))?.lowerBound {
            let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
            var headers: [String: String] = [:]
            for line in head.split(separator: "\r\n").dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            let length = headers["content-length"].flatMap(Int.init) ?? 0
            guard buffer.count >= headEnd + 4 + length else { return }
            let body = Data(buffer[(headEnd + 4)..<(headEnd + 4 + length)])
            buffer.removeFirst(headEnd + 4 + length)
            if head.hasPrefix("HTTP/1.1 200"),
               let message = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
               let id = (message["id"] as? NSNumber)?.int64Value {
                record.received(id, at: now)
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
