import Dispatch
import Logging
import NIOCore
import SwitchboardCore

/// One raw TCP client: frames its bytes into commands, runs them through a
/// ``LineSession`` and carries out the actions; delivers the room's messages
/// as lines. Everything here runs on the channel's event loop, except stores
/// (publishes, presence changes, replays), which go through the connection's
/// own serial queue so the event loop never waits for the disk and one
/// client's commands keep their order.
final class TCPChatHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let bus: MessageBus
    private let presence: Presence
    private let gauges: ConnectionGauges
    private let sessions: SessionDirectory
    private var registration: SessionDirectory.Token?
    private let configuration: TCPServerConfiguration
    private let logger: Logger
    private let storing = DispatchQueue(label: "switchboard.tcp.connection")
    private var framer: LineFramer
    private var session: LineSession
    private var flushTask: Scheduled<Void>?
    private var subscriber: TCPSubscriber?
    private var cursor: Int64 = 0
    private var context: ChannelHandlerContext?

    init(bus: MessageBus, presence: Presence, gauges: ConnectionGauges, sessions: SessionDirectory,
         configuration: TCPServerConfiguration, logger: Logger) {
        self.bus = bus
        self.presence = presence
        self.gauges = gauges
        self.sessions = sessions
        self.configuration = configuration
        self.logger = logger
        framer = LineFramer(maxLineBytes: configuration.maxLineBytes)
        session = LineSession(limits: configuration.limits, maxLineBytes: configuration.maxLineBytes)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func channelActive(context: ChannelHandlerContext) {
        gauges.opened(.tcp)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        let outputs = buffer.withUnsafeReadableBytes { framer.feed($0) }
        for output in outputs { perform(session.receive(output)) }
        flushTask?.cancel()
        flushTask = nil
        if framer.hasPending {
            // Armed only while part of a command waits: not a timer per idle connection.
            let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
            flushTask = context.eventLoop.scheduleTask(in: .milliseconds(Int64(configuration.flushMilliseconds))) {
                handler.value.flushPendingCommand()
            }
        }
    }

    private func flushPendingCommand() {
        flushTask = nil
        for output in framer.flush() { perform(session.receive(output)) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        gauges.closed(.tcp)
        if let registration { sessions.unregister(registration) }
        flushTask?.cancel()
        if let subscriber { _ = bus.unpark(subscriber) }
        subscriber = nil
        if let user = session.user {
            let room = session.room
            storing.async { [presence] in presence.disconnect(user: user, room: room, transport: .tcp) }
        }
        self.context = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        logger.debug("TCP client error: \(error)")
        context.close(promise: nil)
    }

    // MARK: - Actions

    private func perform(_ actions: [LineSession.Action]) {
        for action in actions { perform(action) }
    }

    private func perform(_ action: LineSession.Action) {
        guard let context else { return }
        let channel = context.channel
        switch action {
        case .send(let line):
            send(line)
        case .enter(let user, let room):
            // Deliver from now on (the user's own join included), then announce.
            cursor = bus.lastID
            subscriber = TCPSubscriber(eventLoop: context.eventLoop) { [weak self] in self?.drain() }
            registration = sessions.register(user: user) { channel.close(promise: nil) }
            storing.async { [presence] in presence.connect(user: user, room: room, transport: .tcp) }
            drain()
        case .move(let user, let from, let to):
            if let subscriber { _ = bus.unpark(subscriber) }
            cursor = bus.lastID
            storing.async { [presence] in
                presence.disconnect(user: user, room: from, transport: .tcp)
                presence.connect(user: user, room: to, transport: .tcp)
            }
            drain()
        case .publish(let draft):
            storing.async { [bus] in
                do throws(SwitchboardError) {
                    try bus.publish(draft)  // delivered back to the sender once stored: that is the ack
                } catch {
                    channel.writeAndFlush(channel.allocator.buffer(bytes: LineFormat.error(error.message)), promise: nil)
                }
            }
        case .who(let room):
            let names = presence.online(in: room).map(\.user).joined(separator: ",")
            send(LineFormat.line("who:\(names)"))
        case .replay(let room, let after):
            // Up to what live delivery has reached, so nothing comes twice.
            let upTo = cursor
            storing.async { [bus] in
                var from = after
                while from < upTo, let read = try? bus.read(after: from, in: .room(room), limit: 256) {
                    var buffer = channel.allocator.buffer(capacity: 4096)
                    for message in read.messages where message.id <= upTo { buffer.writeBytes(message.line) }
                    if buffer.readableBytes > 0 { channel.writeAndFlush(buffer, promise: nil) }
                    if read.messages.isEmpty || read.scannedThrough <= from { break }
                    from = read.scannedThrough
                }
            }
        }
    }

    private func send(_ line: [UInt8]) {
        guard let context else { return }
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: line)), promise: nil)
    }

    /// Writes the room's messages after the cursor until there are none, then
    /// parks on the bus. A client whose queue passes the limit is dropped.
    private func drain() {
        guard let context, context.channel.isActive, let subscriber else { return }
        _ = bus.unpark(subscriber)
        while true {
            let read: BusRead
            do {
                read = try bus.readOrPark(after: cursor, in: .room(session.room), limit: 64, waiter: subscriber, park: {})
            } catch {
                logger.error("TCP delivery read failed: \(error)")
                context.close(promise: nil)
                return
            }
            guard case .messages(let messages, let scannedThrough) = read else {
                context.flush()
                return
            }
            if !messages.isEmpty {
                var buffer = context.channel.allocator.buffer(capacity: messages.reduce(0) { $0 + $1.line.count })
                for message in messages { buffer.writeBytes(message.line) }  // a deletion has no line
                if buffer.readableBytes > 0 { context.write(wrapOutboundOut(buffer), promise: nil) }
                bus.stats.delivered(messages, transport: .tcp)
            }
            cursor = scannedThrough
            context.flush()
            if !context.channel.isWritable {
                logger.info("disconnecting TCP client \(session.user ?? "?"): it is not reading (over \(configuration.maxQueuedBytes) bytes queued)")
                _ = bus.unpark(subscriber)
                context.close(promise: nil)
                return
            }
        }
    }
}
