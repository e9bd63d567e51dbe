import Logging
import NIOCore
import SwitchboardCore

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

    private let bus: MessageBus
    private let presence: Presence
    private let connections: ConnectionDirectory
    private let access: AccessControl
    private let notices: NoticeBoard
    private let cluster: (any Cluster)?
    /// Set once the client has sent `typing:`: it hears others' from then on.
    private var listening: NoticeBoard.Token?
    private let configuration: TCPServerConfiguration
    private let logger: Logger
    private var framer: LineFramer
    private var session: LineSession
    private var flushTask: Scheduled<Void>?
    private var subscriber: LineSubscriber?
    private var replays: [LineSubscriber] = []
    private var connection: ConnectionDirectory.ID?
    private var context: ChannelHandlerContext?
    /// Publishes waiting for the store; reads are held while too many do.
    private var pending: PendingStores
    /// A read asked for while the socket's queue was full.
    private var readHeldForWrites = false

    init(bus: MessageBus, presence: Presence, connections: ConnectionDirectory, access: AccessControl,
         notices: NoticeBoard, cluster: (any Cluster)?, configuration: TCPServerConfiguration, client: String, logger: Logger) {
        self.notices = notices
        self.cluster = cluster
        self.bus = bus
        self.presence = presence
        self.connections = connections
        self.access = access
        self.configuration = configuration
        self.logger = logger
        framer = LineFramer(maxLineBytes: configuration.maxLineBytes)
        pending = PendingStores(limit: configuration.maxPendingStores)
        session = LineSession(limits: configuration.limits, maxLineBytes: configuration.maxLineBytes, access: access, client: client)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func channelActive(context: ChannelHandlerContext) {
        connection = connections.open(.tcp, follows: [session.room], close: ending(context))
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

    private func storeFinished() {
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
            let subscriber = LineSubscriber(room: room, after: bus.lastID, access: access.readerAccess(session.identity),
                                            channel: channel) { [weak self] in self?.deliver() }
            subscriber.appFraming = !framer.newlineTerminated
            self.subscriber = subscriber
            logger.info("\(user) has joined", metadata: ["transport": "tcp", "room": "\(room)"])
            let reply = replyOnLoop(context)
            connections.follow(connection, [room])
            connections.identify(connection, user: user, rooms: [room], close: ending(context)) { _, announced in
                // Present on another connection already: no join is published,
                // but this client, like the tutorial's app, expects to see its own.
                if !announced { reply(LineFormat.line("\(user) has joined")) }
            }
            deliver()
        case .authenticated(let identity):
            connections.authenticated(connection, as: identity, close: ending(context))
            if let subscriber {
                _ = bus.unpark(subscriber)
                subscriber.access = access.readerAccess(identity)
                deliver()
            }
        case .move(_, _, let to):
            connections.follow(connection, [to])
            guard let subscriber else { return }
            _ = bus.unpark(subscriber)
            subscriber.move(to: to, after: bus.lastID)
            connections.move(connection, to: [to])
            deliver()
        case .publish(let draft):
            pending.submitted()
            let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
            // The sender gets its message back once stored: that is the ack.
            bus.publish(draft) { result in
                let refusal: [UInt8]?
                if case .failure(let error) = result { refusal = LineFormat.refusal(error) } else { refusal = nil }
                channel.eventLoop.execute {
                    if let refusal { handler.value.send(refusal) }
                    handler.value.storeFinished()
                }
            }
        case .who(let room):
            // Presence as the commands before it left it, answered once they
            // are stored: `iam:luke` then `who:` in one write lists luke,
            // after `luke has joined`. Other nodes' presence is read off the loop.
            let reply = replyOnLoop(context)
            presence.names(in: room) { [bus] names in
                bus.afterQueuedCommits { reply(LineFormat.line("who:\(names.joined(separator: ","))")) }
            }
        case .typing(let user, let room):
            if listening == nil {
                let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
                let loop = context.eventLoop
                listening = notices.listen(filter: .all, access: access.readerAccess(session.identity), user: user) { notice in
                    guard case .typing(let room, let typist) = notice else { return }
                    loop.execute {
                        if handler.value.session.room == room { handler.value.send(LineFormat.line("typing:\(typist)")) }
                    }
                }
            }
            let notice = Notice.typing(room: room, user: user)
            if notices.post(notice) != nil { cluster?.notice(notice) }
        case .replay(let room, let after):
            // Up to what live delivery has reached, so nothing comes twice.
            let upTo = subscriber?.cursor ?? bus.lastID
            guard after < upTo else { return }
            let replay = LineSubscriber(room: room, after: after, until: upTo, access: access.readerAccess(session.identity),
                                        channel: channel) {}
            replay.appFraming = !framer.newlineTerminated
            replays.append(replay)
            deliver()
        }
    }

    /// How the server ends this connection from any thread: `error:CODE`
    /// (`kicked`, `banned`, `token_expired`, `token_revoked`), then close;
    /// or, for a conversation its user left, a move to `lobby`.
    private func ending(_ context: ChannelHandlerContext) -> @Sendable (ConnectionEnd) -> Void {
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        let loop = context.eventLoop
        return { reason in
            loop.execute {
                if case .removed(let room) = reason {
                    handler.value.lostAccess(to: room)
                } else {
                    handler.value.send(LineFormat.error(reason.code), thenClose: true)
                }
            }
        }
    }

    private func lostAccess(to room: String) {
        deliver()  // the room's last messages it may see, the removal among them, before the move
        perform(session.lostAccess(to: room))
    }

    /// ``send(_:)`` from any thread: the line is sent from the event loop,
    /// after whatever the loop was asked to do before.
    private func replyOnLoop(_ context: ChannelHandlerContext) -> @Sendable ([UInt8]) -> Void {
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        let loop = context.eventLoop
        return { line in loop.execute { handler.value.send(line) } }
    }

    /// Writes a reply line: as it is for a line client, as the app can show
    /// it (``AppLineFormat``) for a newline-less one; `thenClose`: the last one.
    private func send(_ line: [UInt8], thenClose: Bool = false) {
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
    private func deliver() {
        guard let context, context.channel.isActive else { return }
        do {
            while let replay = replays.first, context.channel.isWritable {
                let outcome = try bus.pumpWithoutParking(replay)
                if outcome == .empty || replay.isFinished { replays.removeFirst() }
            }
            // No unpark first (a lock per delivery): a wake-up took it out of
            // the bus already, and one still parked is parked again, not twice.
            if let subscriber, context.channel.isWritable {
                _ = try bus.pump(subscriber, park: {})
            }
        } catch {
            logger.error("TCP delivery read failed: \(error)")
            context.close(promise: nil)
            return
        }
        context.flush()
    }
}
