import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import Synchronization
import SwitchboardCore

/// Delivers webhooks (SPEC "An application's backend"): one task reads,
/// and one task per receiver sends, so that a receiver that is down (each
/// request then waits out its deadline) holds back neither the log nor the others.
/// - **Lease:** on a shared database one node at a time delivers (the
///   lease, renewed every 5 s, runs out 15 s after its holder stops).
/// - **The log is the queue's source:** the holder reads the messages
///   after the cursor and queues their events for every receiver in the
///   transaction that moves the cursor, so a crash loses none and each is
///   queued once. A user's presence (not in the log) is queued by the node
///   that saw it, in the order it happened.
/// - **Delivery:** each receiver's due events, one request at a time per
///   room (in id order), rooms at once; a failure is retried
///   (``WebhookRetry``) and holds its room's later events behind it.
/// - **Bounded:** past `--webhook-backlog` events waiting for a receiver the
///   log is not read further (it keeps them); presence events are dropped.
/// Publishing never waits for any of it: a commit only wakes the reader.
public final class WebhookDispatcher: Sendable {
    public typealias Store = MessageStore & WebhookStore
    let store: any Store
    let gate: StoreGate
    let targets: [String]
    let signature: HookSignature
    let node: String
    let backlogLimit: Int
    /// How long an idle holder sleeps before it reads again (other nodes' commits do not wake it).
    let idleMilliseconds: Int64
    let counters: BackendCounters
    let group: any EventLoopGroup
    let logger: Logger
    let clock: @Sendable () -> Int64
    let client = Mutex<HTTPClient?>(nil)
    let tasks = Mutex<[Task<Void, Never>]>([])
    /// Wakes the reader (a commit, a presence change).
    let wakeup = WakeSignal()
    /// Wakes each receiver's sender (events queued for it).
    let senders: [String: WakeSignal]
    /// Whether this node holds the lease, as the reader last found (only
    /// the reader changes it, through `standing`).
    let holding = Atomic<Bool>(false)
    /// Presence events seen here and not yet queued in the store, oldest first.
    let presence = Mutex<[WebhookEvent]>([])

    static let leaseMilliseconds: Int64 = 15_000
    static let logBatch = 512
    static let deliveryBatch = 256
    static let requestTimeout: TimeAmount = .seconds(10)

    public init(store: any Store, gate: StoreGate, targets: [String], secret: String, node: String, backlogLimit: Int,
                idleMilliseconds: Int64, counters: BackendCounters, group: any EventLoopGroup, logger: Logger,
                clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }) {
        self.store = store
        self.gate = gate
        // A receiver named twice is one receiver (its queue's rows are keyed by it).
        var seen = Set<String>()
        self.targets = targets.filter { seen.insert($0).inserted }
        senders = Dictionary(uniqueKeysWithValues: self.targets.map { ($0, WakeSignal()) })
        signature = HookSignature(secret: secret)
        self.node = node
        self.backlogLimit = backlogLimit
        self.idleMilliseconds = idleMilliseconds
        self.counters = counters
        self.group = group
        self.logger = logger
        self.clock = clock
    }

    /// Starts reading and delivering (what a restart left queued first).
    public func start() {
        tasks.withLock { tasks in
            guard tasks.isEmpty else { return }
            client.withLock { $0 = SignedPost.client(on: group, connections: 16) }
            tasks = [Task { [self] in await run() }] + targets.map { target in Task { [self] in await sender(for: target) } }
        }
    }

    /// Something was committed: read the log now.
    public func wake() { wakeup.signal() }

    /// A user came online or went offline here (``Presence/observeUsers(_:)``):
    /// kept in order, queued by the task. Dropped (and counted) past the backlog's bound.
    public func userChanged(_ user: String, online: Bool) {
        let event = WebhookEvents.presence(user: user, online: online, ts: clock())
        let full = counters.current.pending >= backlogLimit * max(1, targets.count)
        let kept = presence.withLock { waiting -> Bool in
            guard !full, waiting.count < 10_000 else { return false }
            waiting.append(event)
            return true
        }
        if kept { wakeup.signal() } else { counters.update { $0.dropped += 1 } }
    }

    /// Stops: presence events not yet queued are queued now (the caller's
    /// thread waits for the store: call it at shutdown, before the store
    /// closes, never on a thread that serves connections); requests under
    /// way are cut off and stay queued. Not on an event loop of `group`.
    public func shutdown() {
        let running = tasks.withLock { tasks in defer { tasks = [] }; return tasks }
        for task in running { task.cancel() }
        let waiting = presence.withLock { waiting in defer { waiting = [] }; return waiting }
        if !waiting.isEmpty { _ = try? store.queueWebhooks(waiting, targets: targets, cursor: nil, node: nil, now: clock()) }
        let made = client.withLock { client in defer { client = nil }; return client }
        try? made?.syncShutdown()
    }

    /// The reader: the lease, presence news, the backlog's count, the log read on.
    private func run() async {
        // The lease is renewed (or, by a node without it, asked for), and the
        // backlog counted, every few rounds, not every one: a busy server
        // wakes it at each commit, its own or another node's.
        var renewed: Int64 = 0, counted: Int64 = 0, full = false
        // The store's cursor as this node last read or moved it: kept from
        // one lease renewal to the next (nil: read it again). Only the
        // holder moves it, and a queue by a node that lost the lease is
        // refused; a lease taken back always passes through a renewal.
        var cursor: Int64?
        while !Task.isCancelled {
            var busy = false
            do {
                if try await queuePresence() { wakeSenders() }
                let now = clock()
                if now - renewed >= Self.leaseMilliseconds / 3 {
                    cursor = nil
                    let (store, node) = (store, node)
                    let held = try await gate.value("the webhook lease") {
                        try store.holdWebhookLease(node: node, now: now, until: now + Self.leaseMilliseconds, start: try store.lastAssignedID())
                    }
                    if held, !holding.load(ordering: .relaxed) { try await tookLease() }
                    renewed = now
                    standing(held)
                }
                // Every node counts (on a shared store, every node's figure is the one queue's).
                if now - counted >= 1_000 {
                    let store = store
                    let backlog = try await gate.value("the webhook backlog") { try store.webhookBacklog() }
                    counters.update { $0.pending = backlog.values.reduce(0, +) }
                    (counted, full) = (now, (backlog.values.max() ?? 0) >= backlogLimit)
                }
                if holding.load(ordering: .relaxed), !full {
                    let read = try await readLog(now: now, cursor: &cursor)
                    if read.moved { wakeSenders() }
                    // A batch cut short by its limit is followed at once; otherwise
                    // the next commit wakes the reader (a signal meanwhile is kept).
                    busy = read.more
                }
            } catch is LeaseLost {
                // Another node took the lease (this one stalled past it): it delivers now, this one stops at once.
                logger.notice("webhooks: another node delivers now", metadata: ["node": "\(node)"])
                cursor = nil
                standing(false)
            } catch {
                logger.debug("webhooks: the store did not answer", metadata: ["error": "\(error)"])
                cursor = nil
            }
            if !busy { await wakeup.sleep(milliseconds: holding.load(ordering: .relaxed) ? idleMilliseconds : Self.leaseMilliseconds / 3) }
        }
    }

    /// Whether this node delivers, for the senders and the figures.
    private func standing(_ held: Bool) {
        if holding.exchange(held, ordering: .relaxed) != held {
            counters.update { $0.delivering = held }
            if held { wakeSenders() }
        }
    }

    private func wakeSenders() {
        for sender in senders.values { sender.signal() }
    }

    /// Just became the one node delivering: what waits for receivers no longer configured is dropped.
    private func tookLease() async throws {
        let (store, targets) = (store, targets)
        let forgotten = try await gate.value("webhooks of old receivers") { try store.forgetWebhookTargets(except: targets) }
        if forgotten > 0 { logger.notice("webhooks: \(forgotten) event(s) for receivers no longer configured dropped") }
        logger.info("webhooks: this node delivers", metadata: ["node": "\(node)"])
    }

    /// The lease went to another node while this one held it (``readLog(now:cursor:)`` found out).
    struct LeaseLost: Error {}

    /// Queues the events of the next messages of the log after `cursor`
    /// (read from the store when nil, and moved with what is queued):
    /// whether the cursor moved, and whether the read was cut short by its
    /// limit (more may follow at once). Throws ``LeaseLost`` when the store
    /// says this node no longer holds the lease.
    private func readLog(now: Int64, cursor: inout Int64?) async throws -> (moved: Bool, more: Bool) {
        let (store, targets, node) = (store, targets, node)
        let from: Int64
        if let cursor { from = cursor } else { from = try await gate.value("the webhook cursor") { try store.webhookCursor() } }
        cursor = from
        let batch = try await gate.value("the log for webhooks") { try store.messages(after: from, in: .all, limit: Self.logBatch) }
        guard batch.scannedThrough > from else { return (false, false) }
        let events = batch.messages.compactMap(WebhookEvents.of)
        guard try await gate.value("webhooks queued", {
            try store.queueWebhooks(events, targets: targets, cursor: batch.scannedThrough, node: node, now: now)
        }) else { throw LeaseLost() }
        cursor = batch.scannedThrough
        // Kept current between the counts (the senders take off what leaves the queue).
        counters.update { $0.pending += events.count * targets.count }
        return (true, batch.messages.count == Self.logBatch)
    }

    /// Presence events seen here, into the store in the order they happened; true when there were any.
    private func queuePresence() async throws -> Bool {
        let waiting = presence.withLock { $0 }
        guard !waiting.isEmpty else { return false }
        let (store, targets, now) = (store, targets, clock())
        _ = try await gate.value("presence webhooks") { try store.queueWebhooks(waiting, targets: targets, cursor: nil, node: nil, now: now) }
        counters.update { $0.pending += waiting.count * targets.count }
        presence.withLock { $0.removeFirst(min(waiting.count, $0.count)) }
        return true
    }
}
