import SwitchboardCore

extension PostgresCluster {
    /// What the node does when the others ask.
    public struct Handlers: Sendable {
        /// Another node committed messages: read them (``MessageBus/ingest()``).
        public var committedElsewhere: @Sendable () -> Void
        /// Another node's administrator kicked a user.
        public var kick: @Sendable (String) -> Void
        /// Open connections per transport, for the heartbeat.
        public var counts: @Sendable () -> [String: Int]
        /// This node's lease was lost: claim its present users again.
        public var reclaim: @Sendable () -> Void
        /// Another node changed accounts, bans or revocations: read them again.
        public var accessChanged: @Sendable () -> Void
        /// Another node passed on a notice (typing, a read receipt): tell this node's streams.
        public var notice: @Sendable (Notice) -> Void

        public init(committedElsewhere: @escaping @Sendable () -> Void, kick: @escaping @Sendable (String) -> Void,
                    counts: @escaping @Sendable () -> [String: Int], reclaim: @escaping @Sendable () -> Void,
                    accessChanged: @escaping @Sendable () -> Void, notice: @escaping @Sendable (Notice) -> Void = { _ in }) {
            self.notice = notice
            self.committedElsewhere = committedElsewhere
            self.kick = kick
            self.counts = counts
            self.reclaim = reclaim
            self.accessChanged = accessChanged
        }
    }
}
