import NIOCore
import SwitchboardCore

/// How a push connection (raw TCP, WebSocket) publishes: the draft goes to
/// the bus's group commit, and its outcome comes back on the connection's
/// event loop (never run on the commit thread every publish waits on), where
/// the connection answers it (an echo, an ack, a refusal) and lets a held
/// read through (``PendingStores``).
public enum PushPublish {
    /// Publishes `draft` through Core's one entry for a client's publish (a
    /// reply's target checked, the uploads `media` checked as `identity`'s
    /// own, the publish hook asked); `answered` runs on `eventLoop` with the
    /// stored message or the refusal (`store_unavailable` once the store has
    /// not answered in `--store-timeout`).
    public static func publish(_ draft: MessageDraft, media: [String], by identity: Identity, through acts: MessageActService,
                               eventLoop: any EventLoop,
                               answered: @escaping (Result<EncodedMessage, SwitchboardError>) -> Void) {
        acts.publish(draft, media: media, by: identity, completion: onLoop(eventLoop, answered))
    }

    /// A completion that runs `answered` on `eventLoop`, from whatever
    /// thread the store's answer comes on.
    public static func onLoop<T: Sendable>(_ eventLoop: any EventLoop, _ answered: @escaping (Result<T, SwitchboardError>) -> Void)
        -> @Sendable (Result<T, SwitchboardError>) -> Void {
        let answered = NIOLoopBound(answered, eventLoop: eventLoop)
        return { result in eventLoop.execute { answered.value(result) } }
    }
}
