import Logging
import SwitchboardAuth
import SwitchboardCore
import SwitchboardPostgres

extension ChatServer {
    /// What this node does when the others tell it something: reads their
    /// messages, kicks a user, counts its connections, claims its users'
    /// presence again, reloads accounts and bans, passes a notice on.
    static func clusterHandlers(bus: MessageBus, presence: Presence, connections: ConnectionDirectory, accounts: AccountService,
                                notices: NoticeBoard, logger: Logger) -> PostgresCluster.Handlers {
        PostgresCluster.Handlers(
            committedElsewhere: {
                do { try bus.ingest() } catch { logger.debug("reading other nodes' messages failed: \(error)") }
            },
            kick: { user in
                connections.kick(user: user)
                presence.dropLeases(of: user)
            },
            counts: { Dictionary(uniqueKeysWithValues: connections.counts().map { ($0.key.rawValue, $0.value) }) },
            reclaim: { presence.reclaim() },
            accessChanged: {
                do { try accounts.reload() } catch { logger.warning("reading accounts and bans failed: \(error)") }
            },
            notice: { notices.post($0) })
    }
}
