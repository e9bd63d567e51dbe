import Dispatch
import Logging
import NIOCore
import SwitchboardCore

/// One raw TCP client: frames its bytes into commands, runs them through a
/// ``LineSession`` and carries out the actions; its ``LineSubscriber`` gets
/// the room's messages. Everything here runs on the channel's event loop,
/// except stores (publishes, presence changes, replays), which go through
/// the connection's own serial queue so the event loop never waits for the
/// disk and one client's commands keep their order.
final class TCPChatHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let bus: MessageBus
    private let presence: Presence
    private let connections: ConnectionDirectory
    private let configuration: TCPServerConfiguration
    private let logger: Logger
    private let storing = DispatchQueue(label: "switchboard.tcp.connection")
    private var framer: LineFramer
    private var session: LineSession
    private var flushTask: Scheduled<Void>?
    private var subscriber: LineSubscriber?
    private var connection: ConnectionDirectory.ID?
    private var context: ChannelHandlerContext?

    init(bus: MessageBus, presence: Presence, connections: ConnectionDirectory,
         configuration: TCPServerConfiguration, logger: Logger) {
        self.bus = bus
        self.presence = presence
        self.connections = connections
        self.configuration = configuration
        self.logger = logger
        framer = LineFramer(maxLineBytes: configuration.maxLineBytes)
        session = LineSession(limits: configuration.limits, maxLineBytes: configuration.maxLineBytes)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func channelActive(context: ChannelHandlerContext) {
        connection = connections.open(.tcp)
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
        flushTask?.cancel()
        if let subscriber { _ = bus.unpark(subscriber) }
        subscriber = nil
        if let connection { storing.async { [connections] in connections.close(connection) } }
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
        guard let context, let connection else { return }
        let channel = context.channel
        switch action {
        case .send(let line):
            context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(bytes: line)), promise: nil)
        case .enter(let user, let room):
            // Deliver from now on (the user's own join included), then announce.
            subscriber = LineSubscriber(room: room, after: bus.lastID, channel: channel) { [weak self] in self?.deliver() }
            storing.async { [connections] in
                connections.identify(connection, user: user, rooms: [room]) { channel.close(promise: nil) }
            }
            deliver()
        case .move(_, _, let to):
            guard let subscriber else { return }
            _ = bus.unpark(subscriber)
            subscriber.move(to: to, after: bus.lastID)
            storing.async { [connections] in connections.move(connection, to: [to]) }
            deliver()
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
            context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(bytes: LineFormat.line("who:\(names)"))), promise: nil)
        case .replay(let room, let after):
            // Up to what live delivery has reached, so nothing comes twice.
            let upTo = subscriber?.cursor ?? 0
            storing.async { [bus] in
                var from = after
                while from < upTo, let read = try? bus.read(after: from, in: .room(room), limit: 256) {
                    var buffer = channel.allocator.buffer(capacity: 4096)
                    for message in read.messages where message.id <= upTo { buffer.writeBytes(message.frame(LineFormat.self)) }
                    if buffer.readableBytes > 0 { channel.writeAndFlush(buffer, promise: nil) }
                    if read.messages.isEmpty || read.scannedThrough <= from { break }
                    from = read.scannedThrough
                }
            }
        }
    }

    /// Pumps the room's messages after the cursor until there are none, then
    /// parks. A client whose queue passes the limit is dropped.
    private func deliver() {
        guard let context, context.channel.isActive, let subscriber else { return }
        _ = bus.unpark(subscriber)
        let outcome: PumpOutcome
        do {
            outcome = try bus.pump(subscriber, limit: 64, park: {})
        } catch {
            logger.error("TCP delivery read failed: \(error)")
            context.close(promise: nil)
            return
        }
        context.flush()
        if outcome == .delivered {  // it stopped because the channel is not writable
            logger.info("disconnecting TCP client \(session.user ?? "?"): it is not reading (over \(configuration.maxQueuedBytes) bytes queued)")
            _ = bus.unpark(subscriber)
            context.close(promise: nil)
        }
    }
}
