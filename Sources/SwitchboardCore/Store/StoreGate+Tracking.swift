import Synchronization

/// How long the store has kept its callers waiting: every store call runs
/// counted (``StoreGate/tracking(showsTheStoreAnswers:isAWrite:_:)``), so that one that hangs makes the
/// gate stalled, and one that answers may end a stall said to have begun.
extension StoreGate {
    /// Runs `body` (a store call on a thread of the caller's own) counted
    /// among the calls running, so that a call that hangs makes
    /// ``isStalled(now:)`` true.
    /// With `showsTheStoreAnswers` false, its answer is not the store's
    /// (``run(_:showsTheStoreAnswers:isAWrite:_:completion:)``).
    /// With `isAWrite`, its answer shows that writes are taken (`/healthz`'s probes).
    public func tracking<T>(showsTheStoreAnswers: Bool = true, isAWrite: Bool = false, _ body: () throws -> T) rethrows -> T {
        let result = try trackingRunning(showsTheStoreAnswers, body)
        if showsTheStoreAnswers { answered(byAWrite: isAWrite) }
        return result
    }

    /// ``tracking(showsTheStoreAnswers:isAWrite:_:)`` without the stall report's look, which comes once the call is no longer counted.
    private func trackingRunning<T>(_ showsTheStoreAnswers: Bool, _ body: () throws -> T) rethrows -> T {
        let now = DeadlineScheduler.now()
        let token = state.withLock { state -> UInt64 in
            state.nextToken += 1
            state.started[state.nextToken] = now
            return state.nextToken
        }
        defer { _ = state.withLock { $0.started.removeValue(forKey: token) } }
        asked(now)
        let result = try body()
        if showsTheStoreAnswers { askedSinceAnswer.store(0, ordering: .releasing) }
        return result
    }

    /// ``tracking(showsTheStoreAnswers:isAWrite:_:)`` for the group commit's calls, one at a time on its
    /// thread: two atomic stores and a load (the stall report's), no lock,
    /// on every commit.
    func trackingCommit<T>(_ body: () throws -> T) rethrows -> T {
        let now = DeadlineScheduler.now()
        commitStarted.store(now, ordering: .releasing)
        asked(now)
        let result: T
        do {
            defer { commitStarted.store(0, ordering: .releasing) }
            result = try body()
        } catch {
            commitUnanswered.store(true, ordering: .relaxed)
            throw error
        }
        askedSinceAnswer.store(0, ordering: .releasing)
        answered(byAWrite: true)
        return result
    }

    /// True while the store is being asked and has not answered for longer
    /// than ``timeoutSeconds`` (the database frozen, a file locked): a call
    /// is running, and none has returned an answer for that long. (A call
    /// the database layer itself gives up on, as postgres-nio's does at 5 s,
    /// is no answer: the next one starts at once, and the stall goes on.)
    public func isStalled(now: UInt64 = DeadlineScheduler.now()) -> Bool {
        guard let unanswered = unanswered(now: now) else { return false }
        return Double(unanswered) / 1e9 > timeoutSeconds
    }

    /// How long, in nanoseconds, the store has been kept waiting
    /// (``isStalled(now:)``): nil when no call is running.
    func unanswered(now: UInt64) -> UInt64? {
        let commit = commitStarted.load(ordering: .acquiring)
        let oldestRunning = [state.withLock { $0.started.values.min() }, commit == 0 ? nil : commit].compactMap { $0 }.min()
        guard let oldestRunning else { return nil }
        let asked = askedSinceAnswer.load(ordering: .acquiring)
        let since = asked != 0 ? min(asked, oldestRunning) : oldestRunning
        return now > since ? now - since : 0
    }

    /// A store call began: the first since the last answer starts the wait.
    private func asked(_ now: UInt64) {
        _ = askedSinceAnswer.compareExchange(expected: 0, desired: now, ordering: .acquiringAndReleasing)
    }
}
