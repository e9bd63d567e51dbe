import NIOCore
import SwitchboardCore
import SwitchboardPush

/// A raw TCP client as a bus subscriber: each batch is written to its
/// channel as protocol lines (one frame per message, shared by every
/// client) while the channel is writable; a wake-up hops to the channel's
/// event loop (in that loop's next turn of ``LoopWakeups``) and pumps again.
/// Used on the channel's event loop only, except ``wake()``.
///
/// The same type replays a `since:` request: a subscriber that stops at
/// `until` (where live delivery had got to), never parks, and so sends
/// nothing twice.
final class LineSubscriber: Subscriber, @unchecked Sendable {
    let transport = Transport.tcp
    let parkingSpot = ParkingSpot()
    private(set) var filter: RoomFilter
    /// What its client may see of conversations: a guest's until `auth:`.
    /// Changed on the event loop while the subscriber is out of the bus.
    var access: RoomAccess
    // `@exclusivity(unchecked)` below: touched on the channel's event loop
    // (docs/ARCHITECTURE.md, "Exclusivity checked where it can fail").
    @exclusivity(unchecked) var cursor: Int64
    /// True for a newline-less client (the DogeChat app): one write per
    /// message, as ``AppLineFormat`` frames it.
    var appFraming = false
    /// For a replay: the last id it sends.
    let until: Int64?
    /// Put before an attachment's path (``TCPServerConfiguration/mediaBaseURL``).
    var mediaBase = ""
    /// Its handler's context, where its lines are written: below the handler,
    /// so a line skips the pipeline's tail and the handler's pass-through (a
    /// channel's `write` went through both). Held as the handler holds it,
    /// until the channel goes inactive and the handler lets its subscribers go.
    private let output: ChannelHandlerContext
    @exclusivity(unchecked) private var frameBuffer = KeptFrameBuffer()
    private let pump: NIOLoopBound<() -> Void>
    private let wakeups: LoopWakeups
    /// Its catch-ups from the store, read off the event loop.
    let storeFetch: StoreFetch? = StoreFetch()

    /// - Parameters:
    ///   - until: for a replay, the last id to send; nil for live delivery.
    ///   - output: the context of the handler it delivers for.
    ///   - wakeups: the wake-ups of the channel's event loop.
    ///   - pump: runs the bus's pump for this subscriber (on the event loop).
    init(room: String, after cursor: Int64, until: Int64? = nil, access: RoomAccess, output: ChannelHandlerContext,
         wakeups: LoopWakeups, pump: @escaping () -> Void) {
        filter = .room(room)
        self.access = access
        self.cursor = cursor
        self.until = until
        self.output = output
        self.wakeups = wakeups
        self.pump = NIOLoopBound(pump, eventLoop: output.eventLoop)
    }

    /// Whether a replay has sent everything up to `until`.
    var isFinished: Bool { until.map { cursor >= $0 } ?? false }

    /// Follows another room from `cursor` on (take it out of the bus first).
    func move(to room: String, after cursor: Int64) {
        filter = .room(room)
        self.cursor = cursor
    }

    func deliver(_ batch: MessageBatch) -> Bool {
        let batch = until.map { until in batch.prefix { $0.id <= until } } ?? batch[...]
        if appFraming {
            for message in batch {
                let bytes = message.message.media == nil ? message.frame(AppLineFormat.self)
                    : AppLineFormat.fit(LineFormat.line(for: message.message, mediaBase: mediaBase))
                if !bytes.isEmpty { output.writeAndFlush(NIOAny(output.channel.allocator.buffer(bytes: bytes)), promise: nil) }
            }
        } else {
            var buffer = frameBuffer.take(capacity: batch.count * 64, from: output.channel.allocator)
            for message in batch {
                if message.message.media != nil {
                    // The attachments' URLs are this server's: the line is this listener's, not the shared frame.
                    buffer.writeBytes(LineFormat.line(for: message.message, mediaBase: mediaBase))
                } else {
                    message.withFrame(LineFormat.self) { line in _ = buffer.writeBytes(line) }  // a deletion has no line
                }
            }
            if buffer.readableBytes > 0 { output.write(NIOAny(buffer), promise: nil) }
            frameBuffer.keep(buffer)
        }
        if let until, let last = batch.last, last.id >= until { return false }
        return output.channel.isWritable
    }

    func wake() {
        wakeups.wake(self)
    }

    /// Its pump, in its loop's turn (on the event loop).
    func pumpOnLoop() {
        pump.value()
    }
}
