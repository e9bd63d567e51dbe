import Dispatch
import Logging
import NIOCore
import SwitchboardCore

/// One raw TCP client: frames its bytes into commands, runs them through a
/// ``LineSession`` and carries out the actions; its ``LineSubscriber`` gets
/// the room's messages. Everything here runs on the channel's event loop,
/// except stores (publishes, presence changes, replays), which go through
/// the connection's own serial queue so the event loop never waits for the
/// disk and one client's commands keep their order. While more than
/// `maxPendingStores` publishes wait on that queue, the handler holds back
/// the channel's reads: a client that sends faster than its messages can be
/// stored is read more slowly, and its memory stays bounded.
final class TCPChatHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let bus: MessageBus
    private let presence: Presence
    private let connections: ConnectionDirectory
    private let configuration: TCPServerConfiguration
    private let logger: Logger
    private let storing = DispatchQueue(label: "switchboard.tcp.connection")
    /// Every connection's store work, so that shutdown can wait for it.
    private let storeWork: DispatchGroup
    private var framer: LineFramer
    private var session: LineSession
    private var flushTask: Scheduled<Void>?
    private var subscriber: LineSubscriber?
    private var connection: ConnectionDirectory.ID?
    private var context: ChannelHandlerContext?
    /// Publishes waiting for the store; reads are held while too many do.
    private var pending: PendingStores

    init(bus: MessageBus, presence: Presence, connections: ConnectionDirectory,
         configuration: TCPServerConfiguration, storeWork: DispatchGroup = DispatchGroup(), logger: Logger) {
        self.storeWork = storeWork
        self.bus = bus
        self.presence = presence
        self.connections = connections
        self.configuration = configuration
        self.logger = logger
        framer = LineFramer(maxLineBytes: configuration.maxLineBytes)
        pending = PendingStores(limit: configuration.maxPendingStores)
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
        subscriber?.appFraming = !framer.newlineTerminated
        flushTask?.cancel()
        flushTask = nil
        if framer.awaitsQuietTime {
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

    func read(context: ChannelHandlerContext) {
        if pending.mayRead() { context.read() }
    }

    private func storeFinished() {
        if pending.finished() { context?.read() }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            logger.info("disconnecting TCP client \(session.user ?? "?"): silent for \(configuration.idleTimeoutSeconds ?? 0) s")
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        flushTask?.cancel()
        if let subscriber { _ = bus.unpark(subscriber) }
        subscriber = nil
        if let user = session.user { logger.info("\(user) has left", metadata: ["transport": "tcp"]) }
        if let connection { storing.async(group: storeWork) { [connections] in connections.close(connection) } }
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
            send(line)
        case .enter(let user, let room):
            // Deliver from now on (the user's own join included), then announce.
            let subscriber = LineSubscriber(room: room, after: bus.lastID, channel: channel) { [weak self] in self?.deliver() }
            subscriber.appFraming = !framer.newlineTerminated
            self.subscriber = subscriber
            logger.info("\(user) has joined", metadata: ["transport": "tcp", "room": "\(room)"])
            let reply = replyFromQueue(context)
            storing.async(group: storeWork) { [connections] in
                let alreadyPresent = connections.identify(connection, user: user, rooms: [room]) { channel.close(promise: nil) }
                // Present on another connection already: no join is published,
                // but this client, like the tutorial's app, expects to see its own.
                if !alreadyPresent.isEmpty {
                    reply(LineFormat.line("\(user) has joined"))
                }
            }
            deliver()
        case .move(_, _, let to):
            guard let subscriber else { return }
            _ = bus.unpark(subscriber)
            subscriber.move(to: to, after: bus.lastID)
            storing.async(group: storeWork) { [connections] in connections.move(connection, to: [to]) }
            deliver()
        case .publish(let draft):
            pending.submitted()
            let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
            // Submitted in order from the connection's queue (after its join);
            // the group commit keeps that order. The sender gets its message
            // back once stored: that is the ack.
            storing.async(group: storeWork) { [bus, storeWork] in
                storeWork.enter()
                bus.publish(draft) { result in
                    let refusal: [UInt8]?
                    if case .failure(let error) = result { refusal = LineFormat.error(error.message) } else { refusal = nil }
                    channel.eventLoop.execute {
                        if let refusal { handler.value.send(refusal) }
                        handler.value.storeFinished()
                    }
                    storeWork.leave()
                }
            }
        case .who(let room):
            // Answered from the connection's queue, after the commands before
            // it: `iam:luke` then `who:` in one write lists luke.
            let reply = replyFromQueue(context)
            storing.async(group: storeWork) { [presence] in
                reply(LineFormat.line("who:\(presence.online(in: room).map(\.user).joined(separator: ","))"))
            }
        case .replay(let room, let after):
            // Up to what live delivery has reached, so nothing comes twice.
            let upTo = subscriber?.cursor ?? 0
            storing.async(group: storeWork) { [bus] in
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

    /// ``send(_:)`` for work on the connection's store queue: the line is
    /// sent from the event loop, after whatever the queue did before it.
    private func replyFromQueue(_ context: ChannelHandlerContext) -> @Sendable ([UInt8]) -> Void {
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        let loop = context.eventLoop
        return { line in loop.execute { handler.value.send(line) } }
    }

    /// Writes a reply line: as it is for a line client, as the app can show
    /// it (``AppLineFormat``) for a newline-less one.
    private func send(_ line: [UInt8]) {
        guard let context else { return }
        let bytes = framer.newlineTerminated ? line : AppLineFormat.fit(line)
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)), promise: nil)
    }

    /// Pumps the room's messages after the cursor until there are none, then
    /// parks. A client whose queue passes the limit is dropped.
    private func deliver() {
        guard let context, context.channel.isActive, let subscriber else { return }
        // No unpark first (a lock per delivery): a wake-up took it out of the
        // bus already, and one still parked is parked again, not twice.
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
