import Dispatch
import Foundation
import Logging
import PostgresNIO
import Synchronization
import SwitchboardCore

/// This node among the others on one PostgreSQL database: its lease, the
/// notifications that wake it, and what it asks of the others.
///
/// - **Wake-ups.** Every commit notifies `switchboard`; a node that hears
///   another's calls ``Handlers/committedElsewhere`` (the bus reads new
///   messages by id). The same happens after the listening connection is
///   re-established and on every heartbeat, so a lost notification or a
///   dropped connection costs latency, never a message.
/// - **Leases.** Every ``heartbeatSeconds`` the node renews its lease
///   (``leaseSeconds``) with its connection counts, and sweeps: the claims of
///   nodes whose lease ran out are ended, with a `leave` for each user then
///   on no live node. A killed node's users are gone within lease + heartbeat.
///   A node that finds its own lease swept (the database was away longer
///   than a lease) registers again and claims its users again.
/// - **Kicks** go to the other nodes on `switchboard_control`.
///
/// All of it runs on one serial queue, with one timer per node (none per
/// connection).
public final class PostgresCluster: Cluster {
    /// How long a node counts as alive after its last heartbeat.
    public static let leaseSeconds = 15
    /// How often a node renews its lease, sweeps, and reads what it may have missed.
    public static let heartbeatSeconds = 3

    public var nodeID: String { store.nodeID }
    let store: PostgresMessageStore
    let logger: Logger
    let queue = DispatchQueue(label: "switchboard-cluster")

    struct State {
        var handlers: Handlers?
        var listener: PostgresConnection?
        var ingestPending = false
        var stopped = false
        var databaseReachable = true
        var address: String
        /// What the last read of the others found (see ``Cluster``).
        var presenceElsewhere: [ClusterPresence] = []
        var nodes: [NodeStatus] = []
        var refreshPending = false
    }
    let state: Mutex<State>
    var connections: PostgresConnections { store.connections }

    /// - Parameters:
    ///   - store: this node's store (its node id and connections are shared).
    ///   - address: where this node serves HTTP, shown to administrators.
    public init(store: PostgresMessageStore, address: String, logger: Logger) {
        self.store = store
        state = Mutex(State(address: address))
        self.logger = logger
    }

    /// Where this node serves, once its listeners are bound (sent with the next heartbeat).
    public func advertise(address: String) {
        state.withLock { $0.address = address }
    }

    /// Registers this node's lease, then listens and starts the heartbeat.
    public func start(_ handlers: Handlers) throws {
        state.withLock { $0.handlers = handlers }
        try register()
        try? refresh()
        scheduleHeartbeat()
        queue.async { self.listen() }
    }

    /// Stops listening and the heartbeat, and gives up this node's lease: its
    /// users who are on no other node leave now, not a lease later. Call
    /// after every connection has closed.
    public func stop() {
        let listener = state.withLock { state in
            state.stopped = true
            defer { state.listener = nil }
            return state.listener
        }
        if let listener { let closing: EventLoopFuture<Void> = listener.close(); _ = try? closing.wait() }
        queue.sync {
            do {
                try connections.query("UPDATE switchboard_nodes SET lease_until = now() - interval '1 second' WHERE id = \(nodeID)")
                try connections.query("SELECT switchboard_sweep(\(MessageBus.systemClock()))")
            } catch {
                logger.warning("could not give up this node's lease: \(error); the others will sweep it")
            }
        }
    }

    public func presenceElsewhere() -> [ClusterPresence] {
        state.withLock { $0.presenceElsewhere }
    }

    public func nodes() -> [NodeStatus] {
        state.withLock { $0.nodes }
    }

    public func accessChanged() {
        send("access \(nodeID)")
    }

    public func notice(_ notice: Notice) {
        send("notice \(nodeID) " + String(decoding: MessageJSON.encode(notice), as: UTF8.self))
    }

    public func kick(user: String) {
        send("kick \(nodeID) \(user)")
    }

    /// Sends `payload` to the other nodes on `switchboard_control`, from the
    /// cluster's queue (lost, and logged, if the database is away).
    private func send(_ payload: String) {
        queue.async { [connections, logger] in
            do {
                try connections.query("SELECT pg_notify('switchboard_control', \(payload))")
            } catch {
                logger.warning("could not tell the other nodes (\(payload.prefix(40))): \(error)")
            }
        }
    }

    // MARK: the others, as last read

    /// Reads who is present on the other nodes and which nodes live, on the
    /// cluster's queue, into the snapshot every caller reads.
    func refresh() throws {
        let presence = try connections.query("""
            SELECT p.room, p.username, p.transport FROM switchboard_presence p JOIN switchboard_nodes n ON n.id = p.node
            WHERE p.node <> \(nodeID) AND n.lease_until > now()
            """).map { row in
            let (room, user, transport) = try row.decode((String, String, String).self)
            return ClusterPresence(room: room, user: user, transport: Transport(rawValue: transport))
        }
        let nodes = try connections.query("""
            SELECT id, address, connections, extract(epoch FROM lease_until - now())::float8 FROM switchboard_nodes
            WHERE lease_until > now() ORDER BY id
            """).map { row in
            let (id, address, counts, lease) = try row.decode((String, String, String, Double).self)
            let connections = (try? JSONDecoder().decode([String: Int].self, from: Data(counts.utf8))) ?? [:]
            return NodeStatus(id: id, address: address, connections: connections, leaseSeconds: lease, isSelf: id == nodeID)
        }
        state.withLock { state in
            state.presenceElsewhere = presence
            state.nodes = nodes
        }
    }

    /// A refresh soon, on the queue: another node's commit may be a join or
    /// a leave. Coalesced: a burst of notifications makes one read.
    func refreshSoon() {
        let schedule = state.withLock { state -> Bool in
            defer { state.refreshPending = true }
            return !state.refreshPending
        }
        guard schedule else { return }
        queue.async { [self] in
            state.withLock { $0.refreshPending = false }
            do { try refresh() } catch { logger.debug("reading the other nodes failed: \(error)") }
        }
    }

    // MARK: lease

    private func register() throws {
        let address = state.withLock { $0.address }
        try connections.query("""
            INSERT INTO switchboard_nodes (id, address, lease_until) VALUES (\(nodeID), \(address), now() + \(Self.leaseSeconds) * interval '1 second')
            ON CONFLICT (id) DO UPDATE SET lease_until = excluded.lease_until
            """)
    }

    /// The next heartbeat, on the queue, until ``stop()``.
    private func scheduleHeartbeat() {
        queue.asyncAfter(deadline: .now() + .seconds(Self.heartbeatSeconds)) { [weak self] in
            guard let self, !self.state.withLock({ $0.stopped }) else { return }
            self.heartbeat()
            self.scheduleHeartbeat()
        }
    }

    /// Renews the lease (registering again if it was swept), sweeps the
    /// others', and reads whatever a lost notification may have hidden.
    private func heartbeat() {
        guard let (handlers, address) = state.withLock({ state in state.stopped ? nil : state.handlers.map { ($0, state.address) } }) else { return }
        do {
            let counts = String(decoding: try JSONEncoder().encode(handlers.counts()), as: UTF8.self)
            let renewed = try connections.query("""
                UPDATE switchboard_nodes SET lease_until = now() + \(Self.leaseSeconds) * interval '1 second', connections = \(counts),
                address = \(address) WHERE id = \(nodeID)
                """).metadata.rows ?? 0
            if renewed == 0 {
                logger.warning("this node's lease had run out and was swept; registering again and claiming its users")
                try register()
                handlers.reclaim()
            }
            let leaves = try connections.query("SELECT switchboard_sweep(\(MessageBus.systemClock()))").first?.decode(Int.self) ?? 0
            if leaves > 0 { logger.info("swept \(leaves) users of nodes whose lease ran out") }
            handlers.committedElsewhere()
            try refresh()
            reachable(true)
        } catch {
            reachable(false, error)
        }
    }

    /// Logs the database going away and coming back, once each.
    func reachable(_ reachable: Bool, _ error: (any Error)? = nil) {
        let changed = state.withLock { state in
            defer { state.databaseReachable = reachable }
            return state.databaseReachable != reachable
        }
        guard changed else { return }
        if reachable { logger.info("the database is reachable again") } else { logger.error("the database is unreachable: \(String(describing: error))") }
    }
}
