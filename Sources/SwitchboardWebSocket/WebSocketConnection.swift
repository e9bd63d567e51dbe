import Logging
import NIOCore
import NIOWebSocket
import SwitchboardCore
import SwitchboardPush
import SwitchboardHTTP

/// One WebSocket client: a bus ``Subscriber`` that writes one text frame
/// (the message's JSON) per message, only while the channel is writable —
/// a slow reader is paused at its cursor and catches up later, so it costs
/// no memory — and takes the client's frames: publishes (acknowledged once
/// stored), `{"ping":..}`, ping/pong and close frames. Runs on the channel's
/// event loop. Stores (its join and leave, its publishes) are queued on the
/// bus's group commit with completions that hop back to the loop, so the
/// loop never waits for the disk, and the join, queued first, is stored
/// before any of the client's messages. Reads are held while too many
/// publishes wait (``PendingStores``), as on raw TCP.
final class WebSocketConnection: ChannelDuplexHandler, Subscriber, @unchecked Sendable {
    typealias InboundIn = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    let transport = Transport.websocket
    let parkingSpot = ParkingSpot()
    let filter: RoomFilter
    let access: RoomAccess
    // `@exclusivity(unchecked)` below: touched on the channel's event loop
    // (docs/ARCHITECTURE.md, "Exclusivity checked where it can fail").
    @exclusivity(unchecked) var cursor: Int64
    /// Its catch-ups from the store, read off the thread that serves it.
    let storeFetch: StoreFetch? = StoreFetch()
    let request: WebSocketRequest
    let services: WebSocketServices
    var context: ChannelHandlerContext?
    /// The frame encoder's context: messages' frames, encoded once for
    /// every reader (``WebSocketTextFrame``), are written there, so that
    /// they go on below the encoder as the bytes they already are.
    private var encodedOutput: ChannelHandlerContext?
    @exclusivity(unchecked) private var frameBuffer = KeptFrameBuffer()
    /// Set once when added to the channel, before it can ever be parked (so before any wake).
    private var eventLoop: (any EventLoop)?
    private var connection: ConnectionDirectory.ID?
    private var listening: NoticeBoard.Token?
    var closing = false
    var awaitingPong = false
    /// A read the channel's full write buffer held back (see ``read(context:)``).
    var readHeld = false
    var pending: PendingStores
    /// Whom the store's gate queues this connection's work for (its identity is fixed).
    let storeCaller: StoreCaller

    init(request: WebSocketRequest, services: WebSocketServices) {
        self.request = request
        self.services = services
        filter = request.filter
        access = services.access.readerAccess(request.identity)
        cursor = request.cursor
        pending = PendingStores(limit: services.configuration.maxPendingStores)
        storeCaller = .of(request.identity, guest: .address(text: request.client))
    }

    private var started = false

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        eventLoop = context.eventLoop
        encodedOutput = try? context.pipeline.syncOperations.context(handlerType: WebSocketFrameEncoder.self)
        // Added after an upgrade on the wss listener: the channel is active already.
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    /// Opens the connection: registered, present, listening, delivering. Once.
    private func start(_ context: ChannelHandlerContext) {
        guard !started else { return }
        started = true
        if request.echo { return }
        let loop = NIOLoopBound(self, eventLoop: context.eventLoop)
        let eventLoop = context.eventLoop
        // Kicks, bans, the token's end and leaving its only conversation close it with 1008, saying which.
        let end: @Sendable (ConnectionEnd) -> Void = { reason in
            eventLoop.execute {
                // Removed from its one conversation: the removal is the last message it gets.
                if case .removed = reason { loop.value.drain() }
                loop.value.close(code: 1008, reason: reason.code)
            }
        }
        let connection = services.connections.open(.websocket, identity: request.identity, soleRoom: filter.soleRoom, close: end)
        self.connection = connection
        // A named user in named rooms is present (a join, queued for the store).
        if let user = request.user, case let names = filter.names, !names.isEmpty {
            services.connections.identify(connection, user: user, rooms: names, close: end)
        }
        listening = services.notices.listen(filter: filter, access: access, user: request.identity.user ?? request.user) { notice in
            eventLoop.execute { loop.value.hear(notice) }
        }
        pump()
    }

    /// A notice for this socket's reader: one text frame, no id.
    private func hear(_ notice: Notice) {
        guard let context, !closing else { return }
        send(WebSocketClientMessage.notice(notice), on: context)
        context.flush()
    }

    func channelInactive(context: ChannelHandlerContext) {
        _ = services.bus.unpark(self)
        if let listening { services.notices.remove(listening) }
        if let connection { services.connections.close(connection) }
        self.context = nil
        encodedOutput = nil
        context.fireChannelInactive()
    }

    // MARK: - Delivery

    func deliver(_ batch: MessageBatch) -> Bool {
        guard let context else { return false }
        if let encodedOutput {
            // Every frame of the batch in one buffer: one write, one `writev` at the flush.
            var buffer = frameBuffer.take(capacity: batch.count * 128, from: context.channel.allocator)
            for message in batch { message.withFrame(WebSocketTextFrame.self) { buffer.writeBytes($0) } }
            encodedOutput.write(NIOAny(buffer), promise: nil)
            frameBuffer.keep(buffer)
        } else {
            for message in batch { send(message.json, on: context) }
        }
        return context.channel.isWritable
    }

    /// Called by a publisher's thread: hops to the event loop.
    func wake() {
        eventLoop?.execute { self.pump() }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            pump()
            if readHeld, context.channel.isWritable {
                readHeld = false
                read(context: context)
            }
        }
        context.fireChannelWritabilityChanged()
    }

    /// Writes what is new after the cursor while the socket takes it; parks when nothing is.
    private func pump() {
        guard let context, !closing else { return }
        guard let outcome = PushDelivery.pump(self, bus: services.bus, logger: services.logger, what: "WebSocket", retry: {
            context.eventLoop.scheduleTask(in: PushDelivery.retryDelay) { [weak self] in self?.pump() }
        }) else { return }
        // From below the frame encoder, which only passes a flush on.
        (encodedOutput ?? context).flush()
        if outcome == .closed { close(code: 1001, reason: "server going away") }
        // .delivered: the channel is full; channelWritabilityChanged pumps again.
    }

    /// Writes what its reader may still see, without parking.
    private func drain() {
        guard let context, !closing else { return }
        while (try? services.bus.pumpWithoutParking(self)) == .delivered, context.channel.isWritable {}
        context.flush()
    }

    func send(_ json: [UInt8], on context: ChannelHandlerContext) {
        let frame = WebSocketFrame(fin: true, opcode: .text, data: context.channel.allocator.buffer(bytes: json))
        context.write(wrapOutboundOut(frame), promise: nil)
    }

    // MARK: - Heartbeat and close

    /// The server-wide keepalive tick: a client that has not answered the
    /// last ping is gone; the others get a new one.
    func heartbeat() {
        guard let context, !closing else { return }
        if awaitingPong {
            services.logger.debug("closing a WebSocket that did not answer a ping")
            return context.close(promise: nil)
        }
        awaitingPong = true
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .ping, data: context.channel.allocator.buffer(capacity: 0))),
                              promise: nil)
    }

    /// How a close the server sends ends the connection.
    enum CloseEnding {
        /// It answers the client's close: hang up once it is sent.
        case answer
        /// Wait for the client's close, up to 2 s (a kick, the shutdown, a frame refused).
        case awaitClient
        /// The frame decoder failed and can read no close: end the output
        /// (FIN) after the close frame, and hang up when the client does, or after 2 s.
        case endOutput
    }

    /// Sends a close frame, then ends the connection as `ending` says,
    /// reading (and dropping) what the client still sends meanwhile.
    /// Hanging up at once on a frame refused reset a client still sending:
    /// its kernel drops what it had not read on a reset, the close frame
    /// with its reason too (the client saw 1006, "abnormal", not why). Only
    /// the first close counts.
    func close(code: UInt16, reason: String, ending: CloseEnding = .awaitClient) {
        guard let context, !closing else { return }
        closing = true
        _ = services.bus.unpark(self)
        var payload = context.channel.allocator.buffer(capacity: 2 + min(reason.utf8.count, 123))
        payload.writeInteger(code)
        payload.writeBytes(reason.utf8.prefix(123))
        let channel = context.channel
        let sent = context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: payload)))
        if ending == .answer { return sent.whenComplete { _ in channel.close(promise: nil) } }
        // Over TLS (SwiftNIO's) this sends close_notify first; where it cannot be done, the timer ends it.
        if ending == .endOutput { sent.whenSuccess { channel.close(mode: .output, promise: nil) } }
        readHeld = false
        context.read()  // reads held (publishes waiting, a full socket) go on: the client's close is to come
        context.eventLoop.scheduleTask(in: .seconds(2)) { channel.close(promise: nil) }
    }
}
