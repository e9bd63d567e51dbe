import Dispatch
import NIOCore

/// One WebSocket subscriber connection for the load runs: sends the upgrade
/// request, reads the `101`, then the server's frames, recording the `id`
/// of each message (a text frame of the message's JSON) and answering pings.
public final class WebSocketSubscriberHandler: ChannelInboundHandler {
    public typealias InboundIn = ByteBuffer
    public typealias OutboundOut = ByteBuffer

    private let request: String
    private let record: StreamRecord
    private var pending: [UInt8] = []
    private var upgraded = false

    public init(host: String, path: String, record: StreamRecord) {
        request = "GET \(path) HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        self.record = record
    }

    public func channelActive(context: ChannelHandlerContext) {
        record.start(request, on: context)
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        record.addBytes(buffer.readableBytes)
        pending += buffer.readableBytesView
        let now = DispatchTime.now().uptimeNanoseconds
        if !upgraded {
            guard let end = pending.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound else { return }
            guard pending.starts(with: Array("HTTP/1.1 101".utf8)) else {
                record.markFailed(String(decoding: pending.prefix(40), as: UTF8.self))
                return context.close(promise: nil)
            }
            pending.removeFirst(end)
            upgraded = true
            record.markOpened()
        }
        var start = 0
        while let (opcode, payload, next) = Self.frame(in: pending, at: start) {
            start = next
            switch opcode {
            case 0x1: if let id = Self.messageID(payload) { record.received(id, at: now) }
            case 0x9: context.writeAndFlush(wrapOutboundOut(Self.maskedPong(payload, allocator: context.channel.allocator)), promise: nil)
            case 0x8: context.close(promise: nil)
            default: break
            }
        }
        pending.removeFirst(start)
    }

    /// A whole server frame (unmasked) at `start`: opcode, payload range, and where the next begins.
    private static func frame(in bytes: [UInt8], at start: Int) -> (UInt8, ArraySlice<UInt8>, Int)? {
        guard bytes.count - start >= 2 else { return nil }
        var length = Int(bytes[start + 1] & 0x7F), offset = start + 2
        let extra = length == 126 ? 2 : length == 127 ? 8 : 0
        guard bytes.count - offset >= extra else { return nil }
        if extra > 0 {
            length = bytes[offset..<(offset + extra)].reduce(0) { $0 << 8 | Int($1) }
            offset += extra
        }
        guard bytes.count - offset >= length else { return nil }
        return (bytes[start] & 0x0F, bytes[offset..<(offset + length)], offset + length)
    }

    /// The `"id":N` at the start of a message's JSON.
    private static func messageID(_ payload: ArraySlice<UInt8>) -> Int64? {
        guard payload.starts(with: Array(#"{"id":"#.utf8)) else { return nil }
        let digits = payload.dropFirst(6).prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        return Int64(String(decoding: digits, as: UTF8.self))
    }

    private static func maskedPong(_ payload: ArraySlice<UInt8>, allocator: ByteBufferAllocator) -> ByteBuffer {
        var frame = allocator.buffer(capacity: payload.count + 6)
        frame.writeBytes([0x8A, 0x80 | UInt8(payload.count), 0, 0, 0, 0])  // a zero mask leaves the payload as it is
        frame.writeBytes(payload)
        return frame
    }

    public func channelInactive(context: ChannelHandlerContext) {
        record.markEnded()
    }

    public func errorCaught(context: ChannelHandlerContext, error: Error) {
        record.fail(error, on: context)
    }
}
