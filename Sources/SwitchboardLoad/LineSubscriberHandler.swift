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
    /// The unfinished line of the last read (lines are split across reads).
    private var line: [UInt8] = []
    /// The line that says this client is in: `NAME has joined`.
    private let joined: [UInt8]
    private static let prefix = Array("bench:m".utf8)
    /// Longest line kept: longer ones are only ever other users' text.
    private static let longestLine = 64

    public init(name: String, room: String, record: StreamRecord) {
        self.name = name
        self.room = room
        self.record = record
        joined = Array("\(name) has joined".utf8)
    }

    public func channelActive(context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: "join:\(room)\niam:\(name)\n")), promise: nil)
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        record.addBytes(buffer.readableBytes)
        let now = DispatchTime.now().uptimeNanoseconds
        // A join storm is millions of lines (every join goes to everyone):
        // find the line ends, and look only at lines that can matter.
        buffer.withUnsafeReadableBytes { bytes in
            var start = bytes.startIndex
            while start < bytes.endIndex {
                guard let end = bytes[start...].firstIndex(of: 10) else {
                    let room = Self.longestLine - line.count
                    if room > 0 { line.append(contentsOf: bytes[start..<min(bytes.endIndex, start + room)]) }
                    return
                }
                if line.isEmpty {
                    handle(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), at: now)
                } else {
                    let room = Self.longestLine - line.count
                    if room > 0 { line.append(contentsOf: bytes[start..<min(end, start + room)]) }
                    line.withUnsafeBytes { handle($0, at: now) }
                    line.removeAll(keepingCapacity: true)
                }
                start = end + 1
            }
        }
    }

    /// One whole line: a benchmark message, or this client's own join.
    private func handle(_ line: UnsafeRawBufferPointer, at now: UInt64) {
        if line.starts(with: Self.prefix) {
            if let index = Int64(String(decoding: line[Self.prefix.count...], as: UTF8.self)) { record.received(index, at: now) }
        } else if !record.opened, line.elementsEqual(joined) {
            record.markOpened()
        }
    }

    public func channelInactive(context: ChannelHandlerContext) {
        record.markEnded()
    }

    public func errorCaught(context: ChannelHandlerContext, error: Error) {
        record.fail(error, on: context)
    }
}
