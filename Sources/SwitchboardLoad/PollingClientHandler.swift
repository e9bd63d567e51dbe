import Dispatch
import Foundation
import NIOCore

/// One polling client on a keep-alive HTTP/1.1 connection: asks for messages
/// after its cursor, again and again (at once for a long-poll, after an
/// interval for a short poll), recording each message id as it arrives and
/// every byte, request and empty answer it cost.
public final class PollingClientHandler: ChannelInboundHandler {
    public typealias InboundIn = ByteBuffer
    public typealias OutboundOut = ByteBuffer

    private let host: String
    private let room: String
    private let waitSeconds: Int?
    private let interval: TimeAmount
    private let record: StreamRecord
    private let authorization: String
    private var since: Int64
    private var framer = HTTPResponseFramer()

    /// - Parameters:
    ///   - waitSeconds: long-poll `wait`; nil for a short poll.
    ///   - interval: pause between short polls.
    ///   - since: the cursor to start after.
    ///   - token: a session token, sent as `Authorization: Bearer` (a
    ///     member polling a conversation); nil for a guest.
    public init(host: String, room: String, waitSeconds: Int?, interval: TimeAmount, since: Int64, token: String? = nil,
                record: StreamRecord) {
        self.host = host
        self.authorization = token.map { "Authorization: Bearer \($0)\r\n" } ?? ""
        self.room = room
        self.waitSeconds = waitSeconds
        self.interval = interval
        self.since = since
        self.record = record
    }

    public func channelActive(context: ChannelHandlerContext) {
        request(context: context)
        // A long-poll's first answer waits for the first message: it is
        // subscribed once asked (its `since` means it cannot miss anything).
        if waitSeconds != nil { record.markOpened() }
    }

    private func request(context: ChannelHandlerContext) {
        let wait = waitSeconds.map { "&wait=\($0)" } ?? ""
        let text = "GET /api/rooms/\(room)/messages?since=\(since)\(wait)&limit=1000 HTTP/1.1\r\nHost: \(host)\r\n\(authorization)\r\n"
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: text)), promise: nil)
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let chunk = unwrapInboundIn(data)
        record.addBytes(chunk.readableBytes)
        framer.append(chunk.readableBytesView)
        let now = DispatchTime.now().uptimeNanoseconds
        guard let response = framer.next() else { return }
        let (head, body) = (response.head, response.body)
        guard head.hasPrefix("HTTP/1.1 200"),
              let page = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              let messages = page["messages"] as? [[String: Any]], let next = (page["next"] as? NSNumber)?.int64Value
        else {
            record.markFailed("poll answered: \(head.prefix(40))")
            context.close(promise: nil)
            return
        }
        for message in messages {
            if let id = (message["id"] as? NSNumber)?.int64Value { record.received(id, at: now) }
        }
        record.addRequest(empty: messages.isEmpty)
        record.markOpened()
        since = max(since, next)
        if waitSeconds != nil {
            request(context: context)
        } else {
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: interval) {
                let (handler, context) = bound.value
                if context.channel.isActive { handler.request(context: context) }
            }
        }
    }

    public func errorCaught(context: ChannelHandlerContext, error: Error) {
        record.fail(error, on: context)
    }

}
