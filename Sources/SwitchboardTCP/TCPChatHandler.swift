import Logging
import NIOCore
import SwitchboardCore
import SwitchboardPush

/// One raw TCP client: frames its bytes into commands, runs them through a
/// ``LineSession`` and carries out the actions; its ``LineSubscriber`` gets
/// the room's messages. Everything here runs on the channel's event loop.
///
/// Nothing here waits for the store. A publish, a join or a leave is queued
/// on the bus's group commit with a completion that hops back to the loop;
/// the group commit keeps the order they were queued in, so one client's
/// commands are stored in the order it sent them, and a reply that must
/// follow them (`who:`) is queued as a barrier behind them.
///
/// Back-pressure both ways, with nothing dropped: while more than
/// `maxPendingStores` publishes wait for the store, or while the socket's
/// queue is over its high-water mark, the client's bytes are read no
/// further; and delivery produces lines from the cursor only while the
/// socket can take them, so a slow reader falls behind and catches up.
final class TCPChatHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let bus: MessageBus
    let presence: Presence
    let connections: ConnectionDirectory
    let access: AccessControl
    let notices: NoticeBoard
    /// Core's one entry for a client's publish (the publish hook among its rules).
    let acts: MessageActService
    /// Set once the client has sent `typing:`: it hears others' from then on.
    var listening: NoticeBoard.Token?
    let configuration: TCPServerConfiguration
    let logger: Logger
    var framer: LineFramer
    var session: LineSession
    var flushTask: Scheduled<Void>?
    // `@exclusivity(unchecked)`: read at every delivery, on the event loop only,
    // and changed by no call that calls out (docs/ARCHITECTURE.md, "Exclusivity checked where it can fail").
    @exclusivity(unchecked) var subscriber: LineSubscriber?
    @exclusivity(unchecked) var replays: [LineSubscriber] = []
    var connection: ConnectionDirectory.ID?
    @exclusivity(unchecked) var context: ChannelHandlerContext?
    /// Publishes waiting for the store; reads are held while too many do.
    var pending: PendingStores
    /// Whom the store's gate queues a guest's work for: the client's address.
    let guestCaller: StoreCaller
    /// A read asked for while the socket's queue was full.
    var readHeldForWrites = false
    /// Its event loop's wake-ups (the server's, shared by the loop's
    /// clients; one of its own when made without).
    private var loopWakeups: LoopWakeups?

    init(bus: MessageBus, presence: Presence, connections: ConnectionDirectory, access: AccessControl,
         notices: NoticeBoard, acts: MessageActService? = nil, configuration: TCPServerConfiguration, client: String,
         wakeups: LoopWakeups? = nil, logger: Logger) {
        self.notices = notices
        loopWakeups = wakeups
        self.acts = acts ?? MessageActService(bus: bus, access: access, limits: configuration.limits, media: nil)
        self.bus = bus
        self.presence = presence
        self.connections = connections
        self.access = access
        self.configuration = configuration
        self.logger = logger
        framer = LineFramer(maxLineBytes: configuration.maxLineBytes)
        pending = PendingStores(limit: configuration.maxPendingStores)
        guestCaller = .address(text: client)
        session = LineSession(limits: configuration.limits, maxLineBytes: configuration.maxLineBytes, access: access, presence: presence,
                              client: client)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    /// The wake-ups of this connection's event loop.
    func wakeups(_ context: ChannelHandlerContext) -> LoopWakeups {
        if let loopWakeups { return loopWakeups }
        let made = LoopWakeups(eventLoop: context.eventLoop)
        loopWakeups = made
        return made
    }

    func channelActive(context: ChannelHandlerContext) {
        connection = connections.open(.tcp, soleRoom: session.room, close: ending(context))
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
        guard context.channel.isWritable else {
            readHeldForWrites = true
            return
        }
        if pending.mayRead() { context.read() }
    }

    func storeFinished() {
        guard pending.finished(), let context else { return }
        if context.channel.isWritable { context.read() } else { readHeldForWrites = true }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            deliver()
            if readHeldForWrites {
                readHeldForWrites = false
                read(context: context)
            }
        }
        context.fireChannelWritabilityChanged()
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
        replays = []
        if let listening { notices.remove(listening) }
        if let user = session.user { logger.info("\(user) has left", metadata: ["transport": "tcp"]) }
        if let connection { connections.close(connection) }
        self.context = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        logger.debug("TCP client error: \(error)")
        context.close(promise: nil)
    }

    /// Writes a reply line: as it is for a line client, as the app can show
    /// it (``AppLineFormat``) for a newline-less one; `thenClose`: the last one.
    func send(_ line: [UInt8], thenClose: Bool = false) {
        guard let context else { return }
        let bytes = framer.newlineTerminated ? line : AppLineFormat.fit(line)
        let channel = context.channel, buffer = wrapOutboundOut(channel.allocator.buffer(bytes: bytes))
        guard thenClose else { return context.writeAndFlush(buffer, promise: nil) }
        context.writeAndFlush(buffer).whenComplete { _ in channel.close(promise: nil) }
    }

    /// Pumps replays first, then the room's messages after the cursor, while
    /// the socket takes them; parks when nothing is new. When the socket is
    /// full it stops at its cursor, and ``channelWritabilityChanged(context:)``
    /// pumps again: a slow reader is never dropped and never queued without bound.
    func deliver() {
        guard let context, context.channel.isActive else { return }
        // A replay waiting for the store (``PumpOutcome/fetching``) holds the
        // live messages back until it is done: its wake-up pumps again.
        var replayWaits = false
        while let replay = replays.first, context.channel.isWritable {
            do {
                let outcome = try bus.pumpWithoutParking(replay)
                if outcome == .fetching { replayWaits = true; break }
                if outcome == .empty || replay.isFinished { replays.removeFirst() }
            } catch {
                // The store did not answer: this replay is refused, the connection stays.
                replays.removeFirst()
                send(LineFormat.refusal(.storeUnavailable(because: error)))
            }
        }
        // No unpark first (a lock per delivery): a wake-up took it out of
        // the bus already, and one still parked is parked again, not twice.
        if !replayWaits, let subscriber, context.channel.isWritable {
            PushDelivery.pump(subscriber, bus: bus, logger: logger, what: "TCP", retry: {
                // On this loop, where the handler lives: no Sendable capture of it.
                context.eventLoop.assumeIsolated().scheduleTask(in: PushDelivery.retryDelay) { [weak self] in self?.deliver() }
            })
        }
        context.flush()
    }
}
