/// The store gate's queued work, one line per caller, taken in turns: the
/// next piece of work is the oldest of the caller whose turn it is, and a
/// caller with more waiting goes to the back of the turns. A client that
/// asks a thousand reads at once then waits behind its own, while anyone
/// else's read waits for at most one of each caller's ahead of it; with one
/// caller it is first in, first out.
struct StoreLanes<Job> {
    /// One caller's work, oldest first from `head`.
    private struct Line {
        var jobs: [Job]
        var head = 0

        /// The oldest job, and whether more are left.
        mutating func take() -> (Job, Bool) {
            let job = jobs[head]
            head += 1
            if head == jobs.count {
                jobs.removeAll()
                head = 0
                return (job, false)
            }
            if head > 64, head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            return (job, true)
        }
    }

    private var lines: [UInt64: Line] = [:]
    /// Callers with work queued, in turn from `head`; each appears once.
    private var turns: [UInt64] = []
    private var head = 0
    /// Work queued, in every line.
    private(set) var count = 0

    /// Queues `job` at the end of `caller`'s line.
    mutating func append(_ job: Job, for caller: UInt64) {
        count += 1
        if lines[caller]?.jobs.append(job) == nil {
            lines[caller] = Line(jobs: [job])
            turns.append(caller)
        }
    }

    /// The next caller's oldest work, or nil when nothing is queued.
    mutating func next() -> Job? {
        guard head < turns.count else {
            turns.removeAll(keepingCapacity: true)
            head = 0
            return nil
        }
        let caller = turns[head]
        head += 1
        if head > 64, head * 2 > turns.count {
            turns.removeFirst(head)
            head = 0
        }
        count -= 1
        // A caller is in the turns only while its line has work.
        let (job, more) = lines[caller]!.take()
        if more {
            turns.append(caller)
        } else {
            lines[caller] = nil
        }
        return job
    }

    /// Everything queued, in turns (the gate closing refuses it), leaving none.
    mutating func removeAll() -> [Job] {
        var all: [Job] = []
        all.reserveCapacity(count)
        while let job = next() { all.append(job) }
        return all
    }
}
