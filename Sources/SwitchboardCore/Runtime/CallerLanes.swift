/// Queued work, one line per caller, taken in turns: the next piece of
/// work is the oldest of the caller whose turn it is, and a caller with
/// more waiting goes to the back of the turns. A client that asks a
/// thousand reads at once then waits behind its own, while anyone else's
/// read waits for at most one of each caller's ahead of it; with one caller
/// it is first in, first out. The store gate's queue (callers by
/// ``StoreCaller``) and the media queue's (by uploader: ``FairSerialQueue``).
struct CallerLanes<Caller: Hashable, Job> {
    /// Each caller's work, oldest first.
    private var lines: [Caller: FIFO<Job>] = [:]
    /// Callers with work queued, in turn; each appears once.
    private var turns = FIFO<Caller>()
    /// Work queued, in every line.
    private(set) var count = 0

    /// Queues `job` at the end of `caller`'s line.
    mutating func append(_ job: Job, for caller: Caller) {
        count += 1
        if lines[caller] == nil { turns.append(caller) }
        lines[caller, default: FIFO()].append(job)
    }

    /// How much of `caller`'s work is queued.
    func count(of caller: Caller) -> Int { lines[caller]?.count ?? 0 }

    /// The next caller's oldest work, or nil when nothing is queued.
    mutating func next() -> Job? {
        guard let caller = turns.removeFirst() else { return nil }
        count -= 1
        // A caller is in the turns only while its line has work.
        let job = lines[caller]!.removeFirst()!
        if lines[caller]!.isEmpty {
            lines[caller] = nil
        } else {
            turns.append(caller)
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
