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
        let deadline: UInt64
    }

    private struct State {
        var queue: [Job] = []
        var head = 0
        var running = 0
        /// Start times of the store calls running now, by token.
        var started: [UInt64: UInt64] = [:]
        var nextToken: UInt64 = 0
        var timedOut = 0
    }

    private let state = Mutex(State())
    private let workers = DispatchQueue(label: "switchboard-store", attributes: .concurrent)
    let deadlines = DispatchQueue(label: "switchboard-store-deadlines")

    /// - Parameters:
    ///   - timeoutSeconds: `--store-timeout`: how long a caller waits.
    ///   - threads: how many store calls may run at once.
    public init(timeoutSeconds: Double = 5, threads: Int = 8) {
        self.timeoutSeconds = max(0.01, timeoutSeconds)
        self.threads = max(1, threads)
    }

    /// Runs `work` on the gate's threads; `completion` runs once, on a gate
    /// thread, with its result, or with `store_unavailable` once
    /// ``timeoutSeconds`` have passed without one. A ``SwitchboardError``
    /// thrown by `work` is passed on as it is; any other error is
    /// `store_unavailable` (and logged by the caller, through `what`).
    public func run<T: Sendable>(_ what: String, _ work: @escaping @Sendable () throws -> T,
                                 completion: @escaping @Sendable (Result<T, SwitchboardError>) -> Void) {
        let answered = Atomic<Bool>(false)
        let deadline = DeadlineScheduler.now() + UInt64(timeoutSeconds * 1e9)
        let answer: @Sendable (Result<T, SwitchboardError>) -> Void = { result in
            if !answered.exchange(true, ordering: .acquiringAndReleasing) { completion(result) }
        }
        let job = Job(run: { [self] in
            guard !answered.load(ordering: .acquiring) else { return }
            let result: Result<T, SwitchboardError> = tracking {
                do {
                    return .success(try work())
                } catch let error as SwitchboardError {
                    return .failure(error)
                } catch {
                    return .failure(.storeUnavailable("\(error)"))
                }
            }
            answer(result)
        }, deadline: deadline)
        deadlines.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: deadline)) { [self] in
            guard !answered.load(ordering: .acquiring) else { return }
            state.withLock { $0.timedOut += 1 }
            answer(.failure(.storeTimedOut(seconds: timeoutSeconds)))
        }
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

    /// Runs `body` (a store call on a thread of the caller's own, such as the
    /// commit thread), counting it among the calls running, so that a call
    /// that hangs makes ``isStalled`` true.
    public func tracking<T>(_ body: () throws -> T) rethrows -> T {
        let token = state.withLock { state -> UInt64 in
            state.nextToken += 1
            state.started[state.nextToken] = DeadlineScheduler.now()
            return state.nextToken
        }
        defer { _ = state.withLock { $0.started.removeValue(forKey: token) } }
        return try body()
    }

    /// True while a store call has been running for longer than
    /// ``timeoutSeconds`` (the database frozen, a file locked).
    public func isStalled(now: UInt64 = DeadlineScheduler.now()) -> Bool {
        let oldest = state.withLock { $0.started.values.min() }
        guard let oldest else { return false }
        return now > oldest && Double(now - oldest) / 1e9 > timeoutSeconds
    }

    /// Counts a caller told `store_unavailable` at its deadline.
    func countTimeOut() {
        state.withLock { $0.timedOut += 1 }
    }

    /// How many callers were told `store_unavailable` because the store did not answer in time.
    public var timedOutCount: Int { state.withLock { $0.timedOut } }

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
            if DeadlineScheduler.now() < job.deadline { job.run() }
        }
    }
}

extension StoreGate {
    /// Answers `ticket` with `store_unavailable` once ``timeoutSeconds`` have
    /// passed, unless it was answered before: the deadline of work that runs
    /// on a thread of its own (the group commit's).
    func expire<T>(_ ticket: StoreTicket<T>) {
        let error = SwitchboardError.storeTimedOut(seconds: timeoutSeconds)
        deadlines.asyncAfter(deadline: .now() + timeoutSeconds) { [self] in
            if ticket.expire(error) { countTimeOut() }
        }
    }
}
