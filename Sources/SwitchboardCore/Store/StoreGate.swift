internal import CMalloc
import Dispatch
import Foundation
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
/// - Queued work is taken caller by caller in turns (``CallerLanes``, by
///   ``StoreCaller/current`` when it was asked for): one client's flood of
///   reads waits behind itself, not in front of everyone else's.
/// - The gate knows how long the oldest unanswered store call has been
///   running (its own and those ``tracking(showsTheStoreAnswers:isAWrite:_:)`` reports, such as the group
///   commit's): ``isStalled`` is what `/healthz` says.
public final class StoreGate: Sendable {
    /// How long a caller waits for the store before it is told `store_unavailable`.
    public let timeoutSeconds: Double
    /// How many store calls may run at once.
    public let threads: Int

    struct Job {
        let run: @Sendable () -> Void
        /// Answers the caller `store_unavailable` without running: the gate closed first.
        let refuse: @Sendable () -> Void
    }

    struct State {
        var queue = CallerLanes<UInt64, Job>()
        /// The gate's threads alive, and those of them waiting for work.
        var threads = 0
        var idle = 0
        /// Start times of the store calls running now on the gate, by token.
        var started: [UInt64: UInt64] = [:]
        var nextToken: UInt64 = 0
        /// Jobs a gate thread has taken and not finished.
        var running = 0
        /// ``close()`` was called: nothing more runs.
        var closed = false
    }

    let state = Mutex(State())
    /// When the commit in progress began (0: none): the group commit's calls,
    /// one at a time on its thread, tracked with two atomic stores.
    let commitStarted = Atomic<UInt64>(0)
    /// When the first store call since the last answer began (0: every call
    /// since has been answered): how long the store has kept callers waiting.
    let askedSinceAnswer = Atomic<UInt64>(0)
    /// The group commit's last call gave no answer (it threw: SQLite busy,
    /// a timeout): until one answers, only a commit ends a stall, not a
    /// read that answers beside a write lock.
    let commitUnanswered = Atomic<Bool>(false)
    /// Wakes an idle gate thread (one signal per job handed to an idle thread).
    private let work = DispatchSemaphore(value: 0)
    let deadlines = DispatchQueue(label: "switchboard-store-deadlines")
    /// Every waiting caller's deadline, on one timer.
    private let expiries: ExpiryQueue
    /// What the operator was told of a stall (``observeStalls(_:)``).
    let stalls = StoreStallReport()

    /// - Parameters:
    ///   - timeoutSeconds: `--store-timeout`: how long a caller waits.
    ///   - threads: how many store calls may run at once.
    public init(timeoutSeconds: Double = 5, threads: Int = 8) {
        self.timeoutSeconds = max(0.01, timeoutSeconds)
        self.threads = max(1, threads)
        expiries = ExpiryQueue(timeoutSeconds: max(0.01, timeoutSeconds), queue: deadlines)
        expiries.onRefusals { [weak self] count in self?.refused(count) }
    }

    /// Runs `work` on the gate's threads; `completion` runs once, on a gate
    /// thread, with its result, or with `store_unavailable` once
    /// ``timeoutSeconds`` have passed without one (then on the deadlines'
    /// queue). A ``SwitchboardError`` thrown by `work` is passed on as it is;
    /// any other error is `store_unavailable`. Work whose deadline passed
    /// before a thread took it is not run.
    ///
    /// `showsTheStoreAnswers` false: work that may wait on the store but
    /// mostly does not touch it (a password checked against accounts in
    /// memory). It counts while it hangs, but its answer neither ends a wait
    /// nor a stall: during a frozen PostgreSQL, sign-ins answered from
    /// memory had `/healthz` and the log say the store answered again, every
    /// few seconds.
    ///
    /// `isAWrite`: its answer shows the store takes writes (`/healthz`'s
    /// probes), which ends a stall the group commit's calls left unanswered.
    public func run<T: Sendable>(_ what: String, showsTheStoreAnswers: Bool = true, isAWrite: Bool = false,
                                 _ work: @escaping @Sendable () throws -> T,
                                 completion: @escaping @Sendable (Result<T, SwitchboardError>) -> Void) {
        let ticket = StoreTicket(completion)
        let caller = StoreCaller.current
        let job = Job(run: { [self] in
            guard ticket.begin() else { return }
            // The completion runs as the caller's too: what it asks the gate for queues in the same line.
            caller.run {
                // A call that throws is no answer: only one that returns ends the wait (``isStalled(now:)``).
                let result: Result<T, SwitchboardError>
                do {
                    result = .success(try tracking(showsTheStoreAnswers: showsTheStoreAnswers, isAWrite: isAWrite) { try work() })
                } catch let error as SwitchboardError {
                    result = .failure(error)
                } catch {
                    result = .failure(.storeUnavailable(because: error))
                }
                ticket.finish(result)
            }
            trimAnsweredDeadlines()
        }, refuse: {
            ticket.expire(.storeUnavailable("the server is stopping"))
        })
        expire(ticket)
        enqueue(job, for: caller)
    }

    /// How many callers were told `store_unavailable` because the store did not answer in time.
    public var timedOutCount: Int { expiries.expiredCount }

    private enum Hand { case wake, spawn, queue, refuse }

    /// Queues `job` in `caller`'s line: an idle gate thread is woken, or one
    /// more is started (up to ``threads``), or it waits its turn.
    private func enqueue(_ job: Job, for caller: StoreCaller) {
        let hand = state.withLock { state -> Hand in
            guard !state.closed else { return .refuse }
            state.queue.append(job, for: caller.lane)
            if state.idle > 0 {
                state.idle -= 1
                return .wake
            }
            guard state.threads < threads else { return .queue }
            state.threads += 1
            return .spawn
        }
        switch hand {
        case .wake: work.signal()
        case .spawn: spawn()
        case .queue: break
        case .refuse: job.refuse()
        }
    }

    /// A gate thread: its own, not GCD's (a GCD queue's threads are as many
    /// as the cores, and a frozen database would hold them all, and with
    /// them whatever else the process queues there). It runs queued jobs,
    /// sleeps while there are none, and ends after 10 s with nothing to do,
    /// so an idle gate holds no thread.
    private func spawn() {
        let thread = Thread { [self] in
            _ = sb_name_this_thread("sb-store")
            while true {
                if let job = next() {
                    job.run()
                    state.withLock { $0.running -= 1 }
                    continue
                }
                if work.wait(timeout: .now() + 10) == .timedOut {
                    let end = state.withLock { state -> Bool in
                        // Still counted idle: nobody woke it, so it may go.
                        guard state.queue.count == 0, state.idle > 0 else { return false }
                        state.idle -= 1
                        state.threads -= 1
                        return true
                    }
                    if end { return }
                }
            }
        }
        thread.start()
    }

    /// The next job, or nil (the thread is then counted idle, under the same lock).
    private func next() -> Job? {
        state.withLock { state -> Job? in
            guard let job = state.queue.next() else {
                state.idle += 1
                return nil
            }
            state.running += 1
            return job
        }
    }
}

extension StoreGate {
    /// Answers `ticket` with `store_unavailable` once ``timeoutSeconds``
    /// have passed, unless it was answered before (one timer for all).
    func expire(_ ticket: some Expiring) {
        expiries.add(ticket)
    }

    /// Frees what was answered (``ExpiryQueue/trimAnswered()``): for the
    /// thread that answers, after it answered.
    func trimAnsweredDeadlines() {
        expiries.trimAnswered()
    }
}
