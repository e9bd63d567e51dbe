import Dispatch
import NIOCore

/// One raw TCP (DogeChat protocol) client: sends `join:ROOM` and `iam:NAME`, then records
/// each `bench:mN` line by its message index N.
public final class LineSubscriberHandler: ChannelInboundHandler {
    public typealias InboundIn = ByteBuffer
    public typealias OutboundOut = ByteBuffer

    private let name: String
    private let room: String
    private let record: StreamRecord
    private var line: [UInt8] = []
    private static let prefix = Array("bench:m".utf8)

    public init(name: String, room: String, record: StreamRecord) {
        self.name = name
        self.room = room
        self.record = record
    }

    public func channelActive(context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: "join:\(room)\niam:\(name)\n")), promise: nil)
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        record.addBytes(buffer.readableBytes)
        let now = DispatchTime.now().uptimeNanoseconds
        buffer.withUnsafeReadableBytes { bytes in
            for byte in bytes {
                guard byte == 10 else {
                    if line.count < 64 { line.append(byte) }
                    continue
                }
                if line.starts(with: Self.prefix), let index = Int64(String(decoding: line[Self.prefix.count...], as: UTF8.self)) {
                    record.received(index, at: now)
                } else if !record.opened, line == Array("\(name) has joined".utf8) {
                    record.markOpened()
                }
                line.removeAll(keepingCapacity: true)
            }
        }
    }

    public func channelInactive(context: ChannelHandlerContext) {
        record.markEnded()
    }

    public func errorCaught(context: ChannelHandlerContext, error: Error) {
        record.fail(error, on: context)
    }
}
