import CMicroHTTPD
import Dispatch
import Foundation
import Synchronization

/// Resumes suspended exchanges a batch at a time, in the order they were
/// queued.
///
/// libmicrohttpd serves every connection resumed since a worker's last turn
/// in one pass of its loop, oldest-suspended first. One message for 5,000
/// SSE streams resumed at once is then one pass of thousands of writes per
/// worker, and everything else on that worker waits behind it: a publish's
/// `201` (its connection was suspended last, so it is served last), a new
/// request, a client's next poll. Resumed a batch at a time, a worker goes
/// back to its epoll between batches and serves what came in meanwhile.
///
/// The next batch is resumed once every exchange of this one has been
/// served again (its stream read, its continuation run or its request
/// ended), or after `patience`, whichever is first, so a client that cannot
/// take bytes holds nobody up. Streams still waiting in the queue are not
/// parked: when they are resumed they take everything published since, in
/// one write. Its thread sleeps on a semaphore while nothing is queued.
final class ResumeQueue: @unchecked Sendable {
    private struct State {
        var waiting: [any ResumableInTurn] = []
        var next = 0
        /// The batch being served, and how many of it have not been served yet.
        var batch: UInt64 = 0
        var outstanding = 0
        var sleeping = true
        var stopped = false
    }

    private let state = Mutex(State())
    private let work = DispatchSemaphore(value: 0)
    private let batchServed = DispatchSemaphore(value: 0)
    private let batchSize: Int
    private let patience: DispatchTimeInterval

    /// - Parameters:
    ///   - batchSize: most exchanges resumed at once.
    ///   - patience: longest wait for a batch to be served before the next.
    init(batchSize: Int, patience: DispatchTimeInterval) {
        self.batchSize = max(1, batchSize)
        self.patience = patience
        let thread = Thread { [self] in
            _ = sb_name_this_thread("mhd-resume")
            run()
        }
        thread.start()
    }

    /// Queues `exchange` to be resumed in its turn; after ``stop()``, resumes it at once.
    func enqueue(_ exchange: any ResumableInTurn) {
        let (wake, stopped) = state.withLock { state -> (Bool, Bool) in
            if state.stopped { return (false, true) }
            state.waiting.append(exchange)
            defer { state.sleeping = false }
            return (state.sleeping, false)
        }
        if stopped { exchange.resumeNow() }
        if wake { work.signal() }
    }

    /// Called on the worker thread when a resumed exchange is served again.
    func served(_ exchange: any ResumableInTurn) {
        let batch = exchange.takeResumeBatch()
        guard batch != 0 else { return }
        let last = state.withLock { state -> Bool in
            guard state.batch == batch, state.outstanding > 0 else { return false }
            state.outstanding -= 1
            return state.outstanding == 0
        }
        if last { batchServed.signal() }
    }

    /// Resumes everything still queued at once and ends the thread; later
    /// ``enqueue(_:)`` calls resume at once. For the daemon's stop.
    func stop() {
        let rest = state.withLock { state -> ArraySlice<any ResumableInTurn> in
            state.stopped = true
            defer { state.waiting = []; state.next = 0 }
            return state.waiting[state.next...]
        }
        for exchange in rest { exchange.resumeNow() }
        work.signal()
    }

    private func run() {
        while true {
            work.wait()
            while let (batch, exchanges) = nextBatch() {
                for exchange in exchanges {
                    exchange.markResumed(inBatch: batch)
                    exchange.resumeNow()
                }
                _ = batchServed.wait(timeout: .now() + patience)
            }
            if state.withLock({ $0.stopped }) { return }
        }
    }

    /// Takes the next batch, or marks the thread asleep when none is queued.
    private func nextBatch() -> (UInt64, ArraySlice<any ResumableInTurn>)? {
        state.withLock { state in
            if state.stopped || state.next == state.waiting.count {
                state.waiting.removeAll(keepingCapacity: state.waiting.count <= 4 * batchSize)
                state.next = 0
                state.sleeping = true
                return nil
            }
            let end = min(state.waiting.count, state.next + batchSize)
            let exchanges = state.waiting[state.next..<end]
            state.next = end
            if state.next > 4 * batchSize, state.next * 2 > state.waiting.count {
                state.waiting.removeFirst(state.next)
                state.next = 0
            }
            state.batch &+= 1
            if state.batch == 0 { state.batch = 1 }
            state.outstanding = exchanges.count
            return (state.batch, exchanges)
        }
    }
}

/// What a ``ResumeQueue`` resumes (an ``HTTPExchange``; a fake in tests).
protocol ResumableInTurn: AnyObject, Sendable {
    /// Resumes at once.
    func resumeNow()
    /// Remembers the batch this was resumed in, until ``takeResumeBatch()``.
    func markResumed(inBatch batch: UInt64)
    /// The batch this was resumed in (0: none), forgetting it.
    func takeResumeBatch() -> UInt64
}
