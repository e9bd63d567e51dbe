import Synchronization

/// Exchanges waiting to be resumed by the thread that runs the daemon
/// (``DaemonLoop``), a turn at a time, in the order they were queued.
///
/// Any thread appends; only the loop's thread takes. The loop takes one
/// turn before each pass of libmicrohttpd's loop, and that pass serves the
/// turn together with whatever else is ready (a new request, a publish's
/// `201`): one message for 5,000 streams is then twenty passes of 256, not
/// one pass of 5,000 writes that everything else waits behind. Nothing waits
/// on a turn being served: the pass itself is the pacing, on the thread that
/// serves, with no thread of its own to hand the wake-ups through.
///
/// Appends go to one array under a lock; the loop swaps it for its own
/// (emptied) array when that is used up, so a steady stream of wake-ups
/// allocates nothing and takes the lock once per swap and once per append.
final class ResumeTurns<Element: AnyObject & Sendable>: @unchecked Sendable {
    private struct Incoming {
        var elements: [Element] = []
        var closed = false
    }

    private let incoming = Mutex(Incoming())
    // `@exclusivity(unchecked)` below: touched on the loop's thread
    // (docs/ARCHITECTURE.md, "Exclusivity checked where it can fail").
    /// The loop's own: what it takes turns from, and how far it has come.
    @exclusivity(unchecked) private var current: [Element] = []
    @exclusivity(unchecked) private var cursor = 0
    private let turnSize: Int

    /// - Parameter turnSize: most elements taken in one turn.
    init(turnSize: Int) {
        self.turnSize = max(1, turnSize)
    }

    /// Queues `element` for a later turn, from any thread; false once
    /// ``close(_:)`` has run (the caller then resumes it itself, at once).
    func append(_ element: Element) -> Bool {
        incoming.withLock { incoming in
            guard !incoming.closed else { return false }
            incoming.elements.append(element)
            return true
        }
    }

    /// Whether a turn would take anything now. Loop thread only.
    var hasQueued: Bool {
        cursor < current.count || incoming.withLock { !$0.elements.isEmpty }
    }

    /// Calls `body` on the next turn's elements, oldest first; true when
    /// more were queued before this turn than it took. Loop thread only.
    func takeTurn(_ body: (Element) -> Void) -> Bool {
        if cursor == current.count {
            current.removeAll(keepingCapacity: true)
            cursor = 0
            incoming.withLock { swap(&$0.elements, &current) }
        }
        let end = min(current.count, cursor + turnSize)
        for index in cursor..<end { body(current[index]) }
        cursor = end
        return cursor < current.count
    }

    /// Refuses appends from now on and calls `body` on everything still
    /// queued, oldest first: for the daemon's stop, on the loop's thread
    /// once its loop has ended.
    func close(_ body: (Element) -> Void) {
        incoming.withLock { $0.closed = true }
        while takeTurn(body) || incoming.withLock({ !$0.elements.isEmpty }) {}
        (current, cursor) = ([], 0)
    }
}
