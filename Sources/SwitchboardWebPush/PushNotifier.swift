import Foundation
import Logging
import SwitchboardCore

/// Queues a notification for every member a committed message should reach
/// and cannot now (``PushRecipients``): told by the bus after each commit on
/// this node (another node queues its own), on the commit thread, so it only
/// decides in memory and hands the store write to the gate. Publishing
/// never waits for it.
public final class PushNotifier: Sendable {
    let bus: MessageBus
    let presence: Presence
    let store: any PushStore
    let sender: PushSender
    let logger: Logger
    let clock: @Sendable () -> Int64

    public init(bus: MessageBus, presence: Presence, store: any PushStore, sender: PushSender, logger: Logger,
                clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }) {
        self.bus = bus
        self.presence = presence
        self.store = store
        self.sender = sender
        self.logger = logger
        self.clock = clock
    }

    /// Listens to the bus's commits from now on.
    public func start() {
        bus.observeCommits { [weak self] stored in self?.committed(stored) }
    }

    /// A public room's message costs one flag test here (``EncodedMessage/isPrivate``).
    func committed(_ stored: [EncodedMessage]) {
        for encoded in stored where encoded.isPrivate {
            let message = encoded.message
            if message.kind == .delete, let target = message.target {
                // An unsend takes back what is still queued for its message (a sent notification stays shown).
                bus.gate.run("the push queue", { [store] in try store.cancelPushes(messageID: target) }, completion: { _ in })
            } else if message.kind == .message, let conversation = bus.conversations.conversation(message.room) {
                queue(message, in: conversation)
            }
        }
    }

    private func queue(_ message: Message, in conversation: Conversation) {
        let online = presence.online(among: Set(conversation.members.map { $0.lowercased() }))
        let users = PushRecipients.of(message, in: conversation, online: online)
        guard !users.isEmpty else { return }
        let (store, sender, logger, now) = (store, sender, logger, clock())
        // The notification is made on the gate, and only when someone away
        // keeps a subscription: not on the commit thread for every message.
        bus.gate.run("the push queue", {
            try store.enqueuePush(room: message.room, messageID: message.id, users: users, now: now) {
                PushNotification(message: message, conversation: conversation)
            }
        }, completion: { result in
            switch result {
            case .success(let queued): if queued > 0 { sender.wake() }
            case .failure(let error):
                logger.warning("notifications not queued", metadata: ["room": "\(message.room)", "error": "\(error)"])
            }
        })
    }
}
