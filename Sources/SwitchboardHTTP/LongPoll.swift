import MicroHTTPD
import Synchronization
import SwitchboardCore

/// A long-poll request parked on the bus: woken by a publish to its room, by
/// its deadline (through the server's one ``DeadlineScheduler``) or by shutdown.
final class LongPoll: MessageWaiter, @unchecked Sendable {
    let room: String
    let since: Int64
    let limit: Int
    /// Monotonic nanoseconds after which it answers empty.
    let deadline: UInt64
    /// Set when an administrator kicked the user: answer with an error.
    let kicked = Atomic<Bool>(false)
    private unowned let exchange: HTTPExchange

    init(exchange: HTTPExchange, room: String, since: Int64, limit: Int, deadline: UInt64) {
        self.exchange = exchange
        self.room = room
        self.since = since
        self.limit = limit
        self.deadline = deadline
    }

    func wake() {
        exchange.resume()
    }

    var isCancelled: Bool { kicked.load(ordering: .acquiring) }
}
