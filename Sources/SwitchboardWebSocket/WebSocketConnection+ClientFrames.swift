import NIOCore
import NIOWebSocket
import SwitchboardCore
import SwitchboardPush

/// What a ``WebSocketConnection`` does with its client's frames: publishes
/// (acknowledged once stored), script-level pings and typing, ping and pong
/// frames, the close handshake; and reads held while too many publishes wait.
extension WebSocketConnection {
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        // Once the server has sent its close (or failed the connection),
        // nothing but the client's close frame counts (RFC 6455, 5.5.1, 7.1.7).
        if closing {
            if frame.opcode == .connectionClose { context.close(promise: nil) }
            return
        }
        switch frame.opcode {
        case .text:
            guard let text = String(validating: frame.unmaskedData.readableBytesView, as: UTF8.self) else {
                return close(code: 1007, reason: "text frames must be UTF-8")
            }
            if request.echo { return echo(frame, on: context) }
            received(text, on: context)
        case .binary:
            if request.echo { return echo(frame, on: context) }
            close(code: 1003, reason: "only text frames are spoken")
        case .ping:
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        case .pong:
            awaitingPong = false
        case .connectionClose:
            closeReceived(frame.unmaskedData)
        default:
            break
        }
    }

    /// The test-only echo endpoint's answer.
    private func echo(_ frame: WebSocketFrame, on context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: frame.opcode, data: frame.unmaskedData)), promise: nil)
    }

    private func received(_ text: String, on context: ChannelHandlerContext) {
        // What the frame asks of the store queues in its caller's line (StoreGate: callers in turns).
        storeCaller.run { answer(text, on: context) }
    }

    private func answer(_ text: String, on context: ChannelHandlerContext) {
        switch WebSocketClientMessage.parse(text, user: request.user, filter: filter, limits: services.configuration.limits,
                                            access: services.access, identity: request.identity, client: request.client) {
        case .ping(let value):
            send(WebSocketClientMessage.pong(value), on: context)
            context.flush()
        case .typing(let room, let user):
            let notice = Notice.typing(room: room, user: user)
            services.notices.say(notice)
        case .refused(let error, let ref):
            send(WebSocketClientMessage.error(error, ref: ref), on: context)
            context.flush()
        case .publish(let draft, let media, let ref):
            pending.submitted()
            PushPublish.publish(draft, media: media, by: request.identity, through: services.acts,
                                eventLoop: context.eventLoop) { [self] result in
                switch result {
                case .success(let stored): self.stored(WebSocketClientMessage.ack(ref: ref, id: stored.id))
                case .failure(let error): self.stored(WebSocketClientMessage.error(error, ref: ref))
                }
            }
        case .act(let act, let ref):
            pending.submitted()
            perform(act, on: context.eventLoop) { [self] result in
                switch result {
                case .success(let stored): self.stored(WebSocketClientMessage.ack(ref: ref, id: stored?.id))
                case .failure(let error): self.stored(WebSocketClientMessage.error(error, ref: ref))
                }
            }
        }
    }

    /// Asks Core for `act`; `answered` runs on `eventLoop` with the act
    /// stored, nil for a reaction that already stood so, or the refusal.
    private func perform(_ act: WebSocketAct, on eventLoop: any EventLoop,
                         answered: @escaping (Result<EncodedMessage?, SwitchboardError>) -> Void) {
        let (acts, identity, client) = (services.acts, request.identity, request.client)
        let done = PushPublish.onLoop(eventLoop, answered)
        switch act.what {
        case .edit(let text):
            acts.edit(room: act.room, id: act.id, text: text, user: act.user, by: identity, client: client) { done($0.map { $0 }) }
        case .unsend:
            acts.unsend(room: act.room, id: act.id, user: act.user, by: identity, client: client) { done($0.map { $0 }) }
        case .react(let emoji, let on):
            acts.react(room: act.room, id: act.id, emoji: emoji, on: on, user: act.user, by: identity, client: client, completion: done)
        }
    }

    /// A publish was stored (or refused): answer it, and let a held read go through.
    private func stored(_ reply: [UInt8]) {
        let readNow = pending.finished()
        guard let context else { return }
        send(reply, on: context)
        context.flush()
        if readNow, context.channel.isWritable { context.read() }
    }

    /// Reads only while the answers they cause can be written: a client that
    /// sends pings (or anything the server answers) and never reads what it
    /// is sent fills the socket's send buffer, then its own, and is no longer
    /// read, so the pongs it asks for never pile up in memory (they are bound
    /// by the channel's write buffer, like every frame a connection queues).
    /// Reads go on when the channel is writable again
    /// (``channelWritabilityChanged(context:)``), or the heartbeat, unanswered,
    /// closes it.
    /// Once closing, reads go on whatever waits (nothing but the client's
    /// close is looked at, nothing is answered): a held read would leave the
    /// client's close, and what it sent before, unread when the server hangs up.
    func read(context: ChannelHandlerContext) {
        if closing { return context.read() }
        guard pending.mayRead() else { return }
        guard context.channel.isWritable else {
            readHeld = true
            return
        }
        context.read()
    }

    private func closeReceived(_ payload: ByteBuffer) {
        var payload = payload
        guard payload.readableBytes != 1 else { return close(code: 1002, reason: "a close payload of one byte", ending: .answer) }
        guard let code = payload.readInteger(as: UInt16.self) else { return close(code: 1000, reason: "", ending: .answer) }
        guard WebSocketClose.isValidReceived(code) else { return close(code: 1002, reason: "close code \(code) is not allowed", ending: .answer) }
        guard String(validating: payload.readableBytesView, as: UTF8.self) != nil else {
            return close(code: 1007, reason: "the close reason must be UTF-8", ending: .answer)
        }
        close(code: code, reason: "", ending: .answer)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        close(code: WebSocketClose.code(for: error),
              reason: WebSocketClose.reason(for: error, maxMessageBytes: services.configuration.maxMessageBytes), ending: .endOutput)
    }
}
