import Dispatch
import Synchronization

/// The one way a thread that serves connections reaches the store or the
/// cluster: the work runs on a small bounded pool of the gate's own threads,
/// and its completion comes back within ``timeoutSeconds`` whatever the
/// store does — with the answer, or with `store_unavailable` when the store
/// did not answer in time.
///
/// - Work still queued when its time is up never runs (a write refused
///   with 503 is then certainly not stored). Work already running when its
///   time is up goes on; its late answer is dropped.
/// - At most ``threads`` pieces of work run at once: a frozen database ties
///   up the gate's threads, never a libmicrohttpd worker, an event loop or
///   the timer thread, and what queues behind them is answered at its deadline.
/// - The gate knows how long the oldest unanswered store call has been
///   running (its own and those ``tracking(_:)`` reports, such as the group
///   commit's): ``isStalled`` is what `/healthz` says.
public final class StoreGate: Sendable {
    /// How long a caller waits for the store before it is told `store_unavailable`.
    public let timeoutSeconds: Double
    /// How many store calls may run at once.
    public let threads: Int

    private struct Job {
        let run: @Sendable () -> Void
    }

    private struct State {
        var queue: [Job] = []
        var head = 0
        var running = 0
        /// Start times of the store calls running now on the gate, by token.
        var started: [UInt64: UInt64] = [:]
        var nextToken: UInt64 = 0
    }

    private let state = Mutex(State())
    /// When the commit in progress began (0: none): the group commit's calls,
    /// one at a time on its thread, tracked with two atomic stores.
    private let commitStarted = Atomic<UInt64>(0)
    private let workers = DispatchQueue(label: "switchboard-store", attributes: .concurrent)
    let deadlines = DispatchQueue(label: "switchboard-store-deadlines")
    /// Every waiting caller's deadline, on one timer.
    private let expiries: ExpiryQueue

    /// - Parameters:
    ///   - timeoutSeconds: `--store-timeout`: how long a caller waits.
    ///   - threads: how many store calls may run at once.
    public init(timeoutSeconds: Double = 5, threads: Int = 8) {
        self.timeoutSeconds = max(0.01, timeoutSeconds)
        self.threads = max(1, threads)
        expiries = ExpiryQueue(timeoutSeconds: max(0.01, timeoutSeconds), queue: deadlines)
    }

    /// Runs `work` on the gate's threads; `completion` runs once, on a gate
    /// thread, with its result, or with `store_unavailable` once
    /// ``timeoutSeconds`` have passed without one (then on the deadlines'
    /// queue). A ``SwitchboardError`` thrown by `work` is passed on as it is;
    /// any other error is `store_unavailable`. Work whose deadline passed
    /// before a thread took it is not run.
    public func run<T: Sendable>(_ what: String, _ work: @escaping @Sendable () throws -> T,
                                 completion: @escaping @Sendable (Result<T, SwitchboardError>) -> Void) {
        let ticket = StoreTicket(completion)
        let job = Job(run: { [self] in
            guard ticket.begin() else { return }
            let result: Result<T, SwitchboardError> = tracking {
                do {
                    return .success(try work())
                } catch let error as SwitchboardError {
                    return .failure(error)
                } catch {
                    return .failure(.storeUnavailable("\(error)"))
                }
            }
            ticket.finish(result)
        })
        expire(ticket)
        let startWorker = state.withLock { state -> Bool in
            state.queue.append(job)
            guard state.running < threads else { return false }
            state.running += 1
            return true
        }
        if startWorker { workers.async { [self] in drain() } }
    }

    /// `run` for work whose result is all the caller needs: `async`/`await`.
    public func value<T: Sendable>(_ what: String, _ work: @escaping @Sendable () throws -> T) async throws(SwitchboardError) -> T {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, SwitchboardError>, Never>) in
            run(what, work) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }

    /// Runs `body` (a store call on a thread of the caller's own) counted
    /// among the calls running, so that a call that hangs makes
    /// ``isStalled(now:)`` true.
    public func tracking<T>(_ body: () throws -> T) rethrows -> T {
        let token = state.withLock { state -> UInt64 in
            state.nextToken += 1
            state.started[state.nextToken] = DeadlineScheduler.now()
            return state.nextToken
        }
        defer { _ = state.withLock { $0.started.removeValue(forKey: token) } }
        return try body()
    }

    /// ``tracking(_:)`` for the group commit's calls, one at a time on its
    /// thread: two atomic stores, no lock, on every commit.
    func trackingCommit<T>(_ body: () throws -> T) rethrows -> T {
        commitStarted.store(DeadlineScheduler.now(), ordering: .releasing)
        defer { commitStarted.store(0, ordering: .releasing) }
        return try body()
    }

    /// True while a store call has been running for longer than
    /// ``timeoutSeconds`` (the database frozen, a file locked).
    public func isStalled(now: UInt64 = DeadlineScheduler.now()) -> Bool {
        let commit = commitStarted.load(ordering: .acquiring)
        let oldest = state.withLock { $0.started.values.min() }.map { commit == 0 ? $0 : min($0, commit) } ?? (commit == 0 ? nil : commit)
        guard let oldest else { return false }
        return now > oldest && Double(now - oldest) / 1e9 > timeoutSeconds
    }

    /// How many callers were told `store_unavailable` because the store did not answer in time.
    public var timedOutCount: Int { expiries.expiredCount }

    /// How many pieces of work are waiting for a thread.
    public var queuedCount: Int { state.withLock { $0.queue.count - $0.head } }

    /// A worker: runs queued jobs until none is left (dropping those whose time is up).
    private func drain() {
        while true {
            let job = state.withLock { state -> Job? in
                guard state.head < state.queue.count else {
                    state.queue.removeAll(keepingCapacity: true)
                    state.head = 0
                    state.running -= 1
                    return nil
                }
                defer {
                    state.head += 1
                    if state.head > 64, state.head * 2 > state.queue.count {
                        state.queue.removeFirst(state.head)
                        state.head = 0
                    }
                }
                return state.queue[state.head]
            }
            guard let job else { return }
            job.run()
        }
    }
}

extension StoreGate {
    /// Answers `ticket` with `store_unavailable` once ``timeoutSeconds``
    /// have passed, unless it was answered before (one timer for all).
    func expire(_ ticket: some Expiring) {
        expiries.add(ticket)
    }
}
