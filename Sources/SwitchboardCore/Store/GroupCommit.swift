internal import CMalloc
import Dispatch
import Foundation
import Synchronization

/// Publishes waiting for the store, committed together: whoever arrives
/// while a commit is running waits for the next one, which takes everything
/// pending in one transaction (one sync to disk), ids in arrival order.
///
/// This is the one way anything waits for the store: a draft is queued with
/// a completion, and the completion runs on the commit thread once the
/// draft's group is durable (or refused). Nobody else's thread waits. A
/// barrier (``submitBarrier(_:)``) runs after everything queued before it
/// and before everything queued after it (the drafts on either side are
/// two transactions), which is how a reply is ordered after the stores a
/// client asked for first, and how a leave that takes a join back keeps
/// its place among the user's joins and leaves.
///
/// The commits run on a thread of their own, asleep on a semaphore while
/// nothing is pending.
final class GroupCommit: Sendable {
    /// Called with the stored message, or nil for a presence change the
    /// store did not announce (another node had announced it).
    typealias Completion = @Sendable (Result<EncodedMessage?, SwitchboardError>) -> Void
    typealias Ticket = CommitTicket
    typealias Commit = @Sendable ([MessageDraft]) -> Result<[EncodedMessage?], SwitchboardError>

    /// What waits, in order: the drafts and their tickets side by side, so
    /// that a group reaches the store as the array it was queued in (an
    /// enum of a draft and its ticket was three copies of every draft on
    /// the commit thread: out of the queue, into the run, into the store's
    /// array), and the barriers, each after the drafts queued before it.
    private struct Queued {
        var drafts: [MessageDraft] = []
        var tickets: [Ticket?] = []
        var barriers: [(after: Int, body: @Sendable () -> Void)] = []

        var isEmpty: Bool { drafts.isEmpty && barriers.isEmpty }

        /// Empties the queue, keeping its arrays' room.
        mutating func removeAll() {
            drafts.removeAll(keepingCapacity: true)
            tickets.removeAll(keepingCapacity: true)
            barriers.removeAll(keepingCapacity: true)
        }
    }

    private struct Pending {
        var queued = Queued()
        var commit: Commit?
        var draining = false
        var stopped = false
        /// Woken when the commit thread next finds nothing left to do.
        var idleWaiters: [DispatchSemaphore] = []
        /// Threads whose submits wake the commit thread at their next
        /// ``releaseWakes()``, not at once (``deferWakesOnThisThread()``).
        var deferring: [pthread_t] = []
    }

    private let pending = Mutex(Pending())
    /// A deferring thread submitted while the commit thread slept.
    private let wakeOwed = Atomic<Bool>(false)
    private let work = DispatchSemaphore(value: 0)
    /// Whose deadlines answer a publish the store has not taken in time.
    private let gate: StoreGate

    init(gate: StoreGate) {
        self.gate = gate
    }

    /// Starts the commit thread with the function that stores a group (given
    /// once, by the owner). It runs until ``stop()``, when its owner ends.
    func start(committing commit: @escaping Commit) {
        pending.withLock { $0.commit = commit }
        let thread = Thread { [self] in
            _ = sb_name_this_thread("sb-commit")
            while waitForWork() { drain() }
        }
        thread.start()
    }

    /// Lets the commit thread end once nothing is pending.
    func stop() {
        pending.withLock { $0.stopped = true }
        work.signal()
    }

    /// Whether anything is queued or being committed.
    var isBusy: Bool { pending.withLock { $0.draining || !$0.queued.isEmpty } }

    /// Waits, at most `seconds`, until nothing is queued or being committed
    /// and every completion has run. True when that happened in time.
    @discardableResult
    func waitUntilIdle(seconds: Double) -> Bool {
        let idle = DispatchSemaphore(value: 0)
        let already = pending.withLock { pending -> Bool in
            if !pending.draining && pending.queued.isEmpty { return true }
            pending.idleWaiters.append(idle)
            return false
        }
        return already || idle.wait(timeout: .now() + seconds) == .success
    }

    /// Sleeps until there is something to commit; false once stopped and drained.
    private func waitForWork() -> Bool {
        if pending.withLock({ $0.stopped && $0.queued.isEmpty }) { return false }
        work.wait()
        return pending.withLock { !($0.stopped && $0.queued.isEmpty) }
    }

    /// Queues `draft`; `completion` runs on the commit thread once the
    /// draft's group is durable (or refused), or with `store_unavailable`
    /// on the gate's deadline thread once the store has not taken it in
    /// `--store-timeout`. A draft still queued then is never stored; one
    /// already in a commit may yet be. A draft without a completion (a
    /// presence `join`) waits for the store however long it takes.
    func submit(_ draft: MessageDraft, completion: Completion?) {
        guard let completion else { return enqueue { $0.drafts.append(draft); $0.tickets.append(nil) } }
        submit(draft, ticket: Ticket(.stored(completion)))
    }

    /// Queues `draft`, a message that must be stored, as ``submit(_:completion:)``
    /// does: `completion` gets the stored message, or the store's failure
    /// when the store did not keep it.
    func submitMessage(_ draft: MessageDraft, completion: @escaping @Sendable (Result<EncodedMessage, SwitchboardError>) -> Void) {
        submit(draft, ticket: Ticket(.message(completion)))
    }

    private func submit(_ draft: MessageDraft, ticket: Ticket) {
        enqueue { $0.drafts.append(draft); $0.tickets.append(ticket) }
        gate.expire(ticket)
    }

    /// Runs `body` on the commit thread once everything queued before it is
    /// committed (or refused) and its completions have run.
    func submitBarrier(_ body: @escaping @Sendable () -> Void) {
        enqueue { $0.barriers.append((after: $0.drafts.count, body: body)) }
    }

    private func enqueue(_ add: (inout Queued) -> Void) {
        let start = pending.withLock { pending -> Bool in
            add(&pending.queued)
            if pending.draining { return false }
            if pending.deferring.contains(where: { pthread_equal($0, pthread_self()) != 0 }) {
                wakeOwed.store(true, ordering: .relaxed)
                return false
            }
            pending.draining = true
            return true
        }
        if start { work.signal() }
    }

    /// From now on, what this thread submits wakes the commit thread at
    /// this thread's next ``releaseWakes()`` rather than at once: for a
    /// thread that serves many requests in one pass (libmicrohttpd's loop)
    /// and releases after each, so that a pass of publishes is one wake-up
    /// of the commit thread and one group, not a wake-up each. The thread
    /// must call ``releaseWakes()`` after every pass and
    /// ``endDeferringWakesOnThisThread()`` before it ends.
    func deferWakesOnThisThread() {
        pending.withLock { $0.deferring.append(pthread_self()) }
    }

    /// Wakes the commit thread for what deferring threads submitted, if it
    /// is asleep; a lock only when something was submitted.
    func releaseWakes() {
        guard wakeOwed.exchange(false, ordering: .acquiringAndReleasing) else { return }
        let start = pending.withLock { pending -> Bool in
            guard !pending.draining, !pending.queued.isEmpty else { return false }
            pending.draining = true
            return true
        }
        if start { work.signal() }
    }

    /// Ends ``deferWakesOnThisThread()``, releasing what it still holds.
    func endDeferringWakesOnThisThread() {
        pending.withLock { pending in pending.deferring.removeAll { pthread_equal($0, pthread_self()) != 0 } }
        wakeOwed.store(true, ordering: .relaxed)
        releaseWakes()
    }

    private func drain() {
        while true {
            let (queued, commit, idleWaiters) = pending.withLock { pending in
                defer { pending.queued.removeAll() }
                var idleWaiters: [DispatchSemaphore] = []
                if pending.queued.isEmpty {
                    pending.draining = false
                    swap(&idleWaiters, &pending.idleWaiters)
                }
                return (pending.queued, pending.commit, idleWaiters)
            }
            for waiter in idleWaiters { waiter.signal() }
            guard !queued.isEmpty, let commit else { return }
            // The drafts between two barriers are one transaction; a barrier
            // runs after the drafts before it and before those after it.
            var start = 0
            for barrier in queued.barriers {
                Self.commitRun(queued.drafts, queued.tickets, start..<barrier.after, commit)
                barrier.body()
                start = barrier.after
            }
            Self.commitRun(queued.drafts, queued.tickets, start..<queued.drafts.count, commit)
            // The group's tickets are answered: freed here, not by the next publisher's thread.
            gate.trimAnsweredDeadlines()
        }
    }

    /// Stores the drafts in `range` in one transaction and runs each
    /// completion with its message; all of `drafts` is passed as it is.
    private static func commitRun(_ drafts: [MessageDraft], _ tickets: [Ticket?], _ range: Range<Int>, _ commit: Commit) {
        // One whose caller was already told the store did not answer is dropped, never stored.
        var dropped: [Int] = []
        for index in range where !(tickets[index]?.begin() ?? true) { dropped.append(index) }
        if dropped.isEmpty {
            store(range.count == drafts.count ? drafts : Array(drafts[range]), answering: range, tickets, commit)
        } else {
            let kept = range.filter { !dropped.contains($0) }
            store(kept.map { drafts[$0] }, answering: kept, tickets, commit)
        }
    }

    /// Stores `run` in one transaction and answers the tickets at `indices`, in its order.
    private static func store(_ run: [MessageDraft], answering indices: some Collection<Int>, _ tickets: [Ticket?], _ commit: Commit) {
        guard !run.isEmpty else { return }
        let outcome = commit(run)
        for (offset, index) in indices.enumerated() { tickets[index]?.finish(outcome.map { $0[offset] }) }
    }
}
