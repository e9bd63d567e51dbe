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
    let cluster: (any Cluster)?
    let store: any PushStore
    let sender: PushSender
    let logger: Logger
    let clock: @Sendable () -> Int64

    public init(bus: MessageBus, presence: Presence, cluster: (any Cluster)?, store: any PushStore, sender: PushSender,
                logger: Logger, clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }) {
        self.bus = bus
        self.presence = presence
        self.cluster = cluster
        self.store = store
        self.sender = sender
        self.logger = logger
        self.clock = clock
    }

    /// Listens to the bus's commits from now on.
    public func start() {
        bus.observeCommits { [weak self] messages in self?.committed(messages) }
    }

    /// Who is online anywhere: this node's connections and leases, and the other nodes' as last read.
    func online() -> Set<String> {
        var users = Set<String>()
        for entries in presence.onlineEverywhere().values {
            for entry in entries { users.insert(entry.user.lowercased()) }
        }
        for entry in cluster?.presenceElsewhere() ?? [] { users.insert(entry.user.lowercased()) }
        return users
    }

    func committed(_ messages: [Message]) {
        // An unsend takes back what is still queued for its message (a sent notification stays shown).
        for unsent in messages where unsent.kind == .delete && unsent.target != nil && ConversationRoom.isConversation(unsent.room) {
            guard let target = unsent.target else { continue }
            bus.gate.run("the push queue", { [store] in try store.cancelPushes(messageID: target) }, completion: { _ in })
        }
        let candidates = messages.filter { $0.kind == .message && !$0.replayed && ConversationRoom.isConversation($0.room) }
        guard !candidates.isEmpty else { return }
        let online = online()
        for message in candidates {
            let conversation = bus.conversations.conversation(message.room)
            let users = PushRecipients.of(message, in: conversation, online: online)
            guard let conversation, !users.isEmpty else { continue }
            let notification = PushNotification(message: message, conversation: conversation)
            let (store, sender, logger, now) = (store, sender, logger, clock())
            bus.gate.run("the push queue", {
                try store.enqueuePush(room: message.room, messageID: message.id, users: users, payload: notification.payload,
                                      topic: notification.topic, ttl: notification.ttl, now: now)
            }, completion: { result in
                switch result {
                case .success(let queued): if queued > 0 { sender.queued(queued) }
                case .failure(let error):
                    logger.warning("notifications not queued", metadata: ["room": "\(message.room)", "error": "\(error)"])
                }
            })
        }
    }
}
