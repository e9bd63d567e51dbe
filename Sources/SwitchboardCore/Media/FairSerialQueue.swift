import Dispatch
import Synchronization

/// Jobs run one at a time on a queue of their own, taken in turns by who
/// asked (round robin: ``CallerLanes``), each asker with at most ``limit`` waiting (not yet
/// started): one user's ten photos do not make everyone else's wait behind
/// them, and nobody queues without bound. A job's place is given back when
/// it starts, so one that answers its caller and is asked again at once
/// finds it free. The media queue (libvips, one photo at a time).
final class FairSerialQueue: Sendable {
    private struct State {
        /// Each asker's jobs not yet started, askers in turns.
        var waiting = CallerLanes<String, @Sendable () -> Void>()
        /// Whether a job runs now (then the queue takes the next itself).
        var running = false
    }

    private let state = Mutex(State())
    private let queue: DispatchQueue
    /// Most jobs one asker has waiting.
    let limit: Int

    init(label: String, limit: Int) {
        queue = DispatchQueue(label: label, qos: .utility)
        self.limit = max(1, limit)
    }

    /// Queues `job` for `asker`; false (and nothing queued) when the asker
    /// has ``limit`` jobs waiting already.
    func enqueue(_ asker: String, _ job: @escaping @Sendable () -> Void) -> Bool {
        let start = state.withLock { state -> Bool? in
            guard state.waiting.count(of: asker) < limit else { return nil }
            state.waiting.append(job, for: asker)
            defer { state.running = true }
            return !state.running
        }
        guard let start else { return false }
        if start { queue.async { [self] in drain() } }
        return true
    }

    /// Runs jobs, one asker's at a time in turn, until none waits.
    private func drain() {
        while let job = next() { job() }
    }

    /// The next asker's first job, no longer waiting; nil (and the queue
    /// idle) when nothing waits.
    private func next() -> (@Sendable () -> Void)? {
        state.withLock { state in
            guard let job = state.waiting.next() else {
                state.running = false
                return nil
            }
            return job
        }
    }
}
