import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import Synchronization
import SwitchboardCore

/// Delivers the queued notifications (RFC 8030): claims what is due from
/// the store, encrypts each for its subscription with a fresh key, signs
/// with VAPID, and POSTs it with async-http-client (connections kept alive
/// per push service; redirects never followed; a name connected to the
/// public address it was checked at: ``PinnedClients``). One task; a
/// batch's deliveries run at once. Publishing never waits for it: the
/// notifier queues in the store and wakes it.
public final class PushSender: Sendable {
    let store: any PushStore
    let gate: StoreGate
    let signer: VAPIDSigner
    /// The HTTP client, made by ``start()`` (a server whose start failed never makes one to shut down).
    let client = Mutex<HTTPClient?>(nil)
    /// The clients of endpoints named by a host name, each pinned to an
    /// address checked public (none made before the first push to a name).
    let pinned: PinnedClients
    let group: any EventLoopGroup
    let allowedHosts: Set<String>
    let logger: Logger
    let clock: @Sendable () -> Int64
    /// A host name's addresses when all are public (getaddrinfo off the serving threads; a test's own).
    let publicAddresses: @Sendable (String) async -> [String]?
    let wakeup = WakeSignal()
    let task = Mutex<Task<Void, Never>?>(nil)
    /// Accepted, gone, given up since start, and the queue's length as the store last said.
    let counts = Mutex(PushFigures())

    /// How many notifications are claimed at once, and for how long another node leaves them alone.
    static let batch = 64
    static let claimMilliseconds: Int64 = 120_000

    /// - Parameters:
    ///   - allowedHosts: `--push-allow-host`, lowercased (``WebPushConfiguration/allowedHosts``).
    ///   - publicAddresses: a host name's addresses as text when all are public, else nil (the resolver's by default).
    public init(store: any PushStore, gate: StoreGate, signer: VAPIDSigner, group: any EventLoopGroup,
                allowedHosts: Set<String>, logger: Logger,
                clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) },
                publicAddresses: (@Sendable (String) async -> [String]?)? = nil) {
        self.store = store
        self.gate = gate
        self.signer = signer
        self.group = group
        self.allowedHosts = allowedHosts
        self.logger = logger
        self.clock = clock
        self.publicAddresses = publicAddresses ?? { await HostAddresses.publicAddresses($0) }
        pinned = PinnedClients(configuration: Self.clientConfiguration, group: group, capacity: Self.batch)
    }

    /// Every client's: redirects never followed, connections kept a minute.
    private static var clientConfiguration: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow,
                                                     timeout: .init(connect: .seconds(5), read: .seconds(15)))
        configuration.connectionPool = .init(idleTimeout: .seconds(60))
        return configuration
    }

    /// Starts delivering (what a restart left in the queue first).
    public func start() {
        task.withLock { task in
            guard task == nil else { return }
            let made = HTTPClient(eventLoopGroupProvider: .shared(group), configuration: Self.clientConfiguration)
            client.withLock { $0 = made }
            task = Task { [self] in await run() }
        }
    }

    /// Something was queued: look now rather than at the next due time.
    public func wake() { wakeup.signal() }

    /// Stops: the task is cancelled (requests under way are cut off; what
    /// they were sending stays queued, claimed for two minutes) and the
    /// client's connections closed. Waits for no task, so it may be called
    /// from any thread but an event loop of the client's group.
    public func shutdown() {
        let running = task.withLock { task in defer { task = nil }; return task }
        running?.cancel()
        let made = client.withLock { client in defer { client = nil }; return client }
        try? made?.syncShutdown()
        for pinnedClient in pinned.close() { try? pinnedClient.syncShutdown() }
    }

    /// What the sender has done since start, and the queue as last read.
    public var figures: PushFigures { counts.withLock { $0 } }

    private func run() async {
        while !Task.isCancelled {
            let now = clock()
            let jobs = (try? await gate.value("the push queue") { [store] in
                try store.claimDuePushes(now: now, claimUntil: now + Self.claimMilliseconds, limit: Self.batch)
            }) ?? []
            if !jobs.isEmpty { await deliver(jobs) }
            // The queue's length is the store's to say, after every batch and before every sleep.
            let queue = try? await gate.value("the push queue's length") { [store] in try store.pushQueue() }
            if let queue { counts.withLock { $0.pending = queue.pending } }
            if jobs.isEmpty {
                await wakeup.sleep(milliseconds: min(30_000, max(50, (queue?.nextDue ?? .max / 2) - clock())))
            }
        }
    }

    /// One batch's attempts at once, then what the queue makes of them: the
    /// finished (accepted or given up) leave it in one store call, so a
    /// thousand pushes are not a thousand transactions.
    func deliver(_ jobs: [PushJob]) async {
        // Each endpoint read once (nil: no longer a URL allowed, so gone).
        let endpoints = jobs.map { try? PushEndpoint($0.subscription.endpoint, allowedHosts: allowedHosts) }
        let clients = await pinnedClients(for: endpoints.compactMap { $0 })
        let outcomes = await withTaskGroup(of: (PushJob, PushOutcome).self) { group in
            for (job, endpoint) in zip(jobs, endpoints) {
                group.addTask { (job, await self.attempt(job, to: endpoint, pinnedClients: clients)) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        var finished: [Int64] = []
        for (job, outcome) in outcomes {
            switch outcome {
            case .delivered:
                counts.withLock { $0.sent += 1 }
                finished.append(job.id)
            case .gone:
                counts.withLock { $0.gone += 1 }
                logger.info("push subscription gone; forgotten", metadata: ["user": "\(job.subscription.user)"])
                _ = try? await gate.value("a push subscription gone") { [store] in try store.dropSubscription(endpoint: job.subscription.endpoint) }
            case .retry(let wait):
                _ = try? await gate.value("a push retried") { [store, clock] in
                    try store.retryPush(id: job.id, attempts: job.attempts + 1, due: clock() + wait)
                }
            case .giveUp(let why):
                counts.withLock { $0.failed += 1 }
                logger.notice("push given up", metadata: ["user": "\(job.subscription.user)", "why": "\(why)"])
                finished.append(job.id)
            }
        }
        if !finished.isEmpty { _ = try? await gate.value("pushes finished") { [store, finished] in try store.finishPushes(ids: finished) } }
    }

    /// Each host name of the batch that needs it, resolved once (a thousand
    /// pushes to one service are one lookup) and, when all its addresses
    /// are public, its client pinned to one of them; a name missing from
    /// the result resolved to none or to one not public. Checked at each
    /// batch: what a name resolves to may change. Clients replaced are shut
    /// down here, between batches, when none has a request under way. Nil
    /// once the sender is shut down: its attempts are then tried again
    /// later, not given up.
    private func pinnedClients(for endpoints: [PushEndpoint]) async -> [String: HTTPClient]? {
        var clients: [String: HTTPClient] = [:], looked: Set<String> = []
        for endpoint in endpoints {
            guard endpoint.needsResolution, looked.insert(endpoint.urlHost).inserted,
                  let addresses = await publicAddresses(endpoint.host) else { continue }
            let (client, retired) = pinned.client(for: endpoint.urlHost, addresses: addresses)
            for old in retired { try? await old.shutdown() }
            guard let client else { return nil }
            clients[endpoint.urlHost] = client
        }
        return clients
    }

    private func attempt(_ job: PushJob, to endpoint: PushEndpoint?, pinnedClients: [String: HTTPClient]?) async -> PushOutcome {
        let subscription = job.subscription
        guard let endpoint else { return .gone }
        let pinnedClient = pinnedClients?[endpoint.urlHost]
        if endpoint.needsResolution, pinnedClients != nil, pinnedClient == nil {
            return .giveUp("the endpoint's host \(endpoint.host) does not resolve to public addresses only")
        }
        guard let key = Base64URL.decode(subscription.p256dh), let secret = Base64URL.decode(subscription.auth),
              let body = try? WebPushEncryption.encrypt(job.payload, receiverKey: key, authSecret: secret)
        else { return .gone }
        var request = HTTPClientRequest(url: subscription.endpoint)
        request.method = .POST
        request.headers.add(name: "TTL", value: "\(job.ttl)")
        request.headers.add(name: "Topic", value: job.topic)
        request.headers.add(name: "Urgency", value: "normal")
        request.headers.add(name: "Content-Type", value: "application/octet-stream")
        request.headers.add(name: "Content-Encoding", value: "aes128gcm")
        request.body = .bytes(ByteBuffer(bytes: body))
        var status: Int?, retryAfter: String?
        do {
            request.headers.add(name: "Authorization", value: try await signer.authorization(for: endpoint.origin))
            // A name goes through its pinned client only; an IP literal or an admitted host through the shared one.
            guard let client = endpoint.needsResolution ? pinnedClient : client.withLock({ $0 }) else { throw CancellationError() }
            let response = try await client.execute(request, timeout: .seconds(20))
            status = Int(response.status.code)
            retryAfter = response.headers.first(name: "Retry-After")
            _ = try? await response.body.collect(upTo: 16_384)
        } catch {
            logger.debug("push attempt failed", metadata: ["error": "\(error)"])
        }
        return PushOutcome.of(status: status, retryAfter: retryAfter, attempts: job.attempts + 1, created: job.created,
                              now: clock(), jitter: Double.random(in: 0...1))
    }
}
