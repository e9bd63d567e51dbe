import NIOCore
import SwitchboardCore
import SwitchboardPush

/// What a ``TCPChatHandler`` does with each of its session's actions: on the
/// channel's event loop, waiting for nothing (the store answers through
/// completions that hop back to the loop).
extension TCPChatHandler {
    func perform(_ actions: [LineSession.Action]) {
        // What the line asks of the store queues in its caller's line (StoreGate: callers in turns).
        StoreCaller.of(session.identity, guest: guestCaller).run {
            for action in actions { perform(action) }
        }
    }

    private func perform(_ action: LineSession.Action) {
        guard let context, let connection else { return }
        switch action {
        case .send(let line):
            send(line)
        case .enter(let user, let room):
            // Deliver from now on (the user's own join included), then announce.
            let subscriber = LineSubscriber(room: room, after: bus.lastID, access: access.readerAccess(session.identity),
                                            output: context, wakeups: wakeups(context)) { [weak self] in self?.deliver() }
            subscriber.appFraming = !framer.newlineTerminated
            subscriber.mediaBase = configuration.mediaBaseURL
            self.subscriber = subscriber
            logger.info("\(user) has joined", metadata: ["transport": "tcp", "room": "\(room)"])
            let reply = replyOnLoop(context)
            connections.follow(connection, only: room)
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
            connections.follow(connection, only: to)
            guard let subscriber else { return }
            _ = bus.unpark(subscriber)
            subscriber.move(to: to, after: bus.lastID)
            connections.move(connection, to: [to])
            deliver()
        case .publish(let draft):
            pending.submitted()
            // The sender gets its message back once stored (live delivery): that is the ack.
            PushPublish.publish(draft, media: [], by: session.identity, through: acts, eventLoop: context.eventLoop) { [self] result in
                if case .failure(let error) = result { send(LineFormat.refusal(error)) }
                storeFinished()
            }
        case .who(let room):
            // Presence as the commands before it left it, answered once they
            // are stored: `iam:luke` then `who:` in one write lists luke,
            // after `luke has joined`; a stalled store holds it half a second
            // at most (presence is in memory; other nodes' as last read).
            let reply = replyOnLoop(context)
            let names = presence.names(in: room)
            bus.afterQueuedCommits(atMost: 0.5) { reply(LineFormat.line("who:\(names.joined(separator: ","))")) }
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
            notices.say(.typing(room: room, user: user))
        case .replay(let room, let after):
            // Up to what live delivery has reached, so nothing comes twice.
            let upTo = subscriber?.cursor ?? bus.lastID
            guard after < upTo else { return }
            let replay = LineSubscriber(room: room, after: after, until: upTo, access: access.readerAccess(session.identity),
                                        output: context, wakeups: wakeups(context)) { [weak self] in self?.deliver() }
            replay.appFraming = !framer.newlineTerminated
            replay.mediaBase = configuration.mediaBaseURL
            replays.append(replay)
            deliver()
        }
    }

    /// How the server ends this connection from any thread: `error:CODE`
    /// (`kicked`, `banned`, `token_expired`, `token_revoked`), then close;
    /// or, for a conversation its user left, a move to `lobby`.
    func ending(_ context: ChannelHandlerContext) -> @Sendable (ConnectionEnd) -> Void {
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
}
