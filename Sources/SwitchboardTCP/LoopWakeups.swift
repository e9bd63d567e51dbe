import NIOCore
import Synchronization

/// The wake-ups of one event loop's line subscribers, gathered into one
/// task. A message for a room wakes every client in it from the thread that
/// committed it; each wake-up used to be a task of its own on the client's
/// loop (a closure allocated, the loop's task queue locked, 5,000 of them a
/// message for 5,000 clients). Here the waking thread appends the subscriber
/// to its loop's list, and only the first append since the loop last took
/// the list asks the loop for a turn: the loop then pumps every subscriber
/// woken meanwhile, in the order woken. The list and its spare are swapped,
/// so steady wake-ups allocate nothing.
///
/// A subscriber woken twice before its turn is pumped twice: harmless (the
/// second pump finds nothing new and parks it again).
final class LoopWakeups: @unchecked Sendable {
    private let eventLoop: any EventLoop
    private let woken = Mutex<[LineSubscriber]>([])
    /// The list the loop pumps from, swapped with ``woken`` each turn: used
    /// by ``turn()`` alone, on the loop (hence unchecked Sendable).
    private var taking: [LineSubscriber] = []

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// Queues `subscriber`'s pump on its loop; from any thread.
    func wake(_ subscriber: LineSubscriber) {
        let first = woken.withLock { woken in
            woken.append(subscriber)
            return woken.count == 1
        }
        if first { eventLoop.execute { [self] in turn() } }
    }

    /// How many subscribers wait for their turn.
    var waiting: Int { woken.withLock { $0.count } }

    /// Pumps everything woken so far (on the loop).
    private func turn() {
        var list: [LineSubscriber] = []
        swap(&list, &taking)
        woken.withLock { swap(&$0, &list) }
        for subscriber in list { subscriber.pumpOnLoop() }
        list.removeAll(keepingCapacity: true)
        taking = list
    }
}
