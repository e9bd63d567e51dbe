import MicroHTTPD
import SwitchboardCore

/// A short poll's one read: from the ring at once, or, when its cursor is
/// older than the ring, suspended while the store is read off the worker
/// (``StoreFetch``) and answered when the subscriber is woken. A store that
/// does not answer in `--store-timeout` is a 503.
final class ShortPoll: HTTPContinuation, @unchecked Sendable {
    private let poll: PollSubscriber
    private let limit: Int
    private let bus: MessageBus

    private init(poll: PollSubscriber, limit: Int, bus: MessageBus) {
        self.poll = poll
        self.limit = limit
        self.bus = bus
    }

    /// Answers `poll` on `exchange`: a page now, or once the store has
    /// answered (the continuation is made only then: a poll answered from
    /// the ring allocates nothing for it).
    static func answer(_ poll: PollSubscriber, limit: Int, exchange: any HTTPExchanging, bus: MessageBus) throws -> HTTPHandlerResult {
        let outcome = try bus.pumpWithoutParking(poll, limit: limit, whileFetching: {
            poll.onWake = { [unowned exchange] in exchange.resume() }
            exchange.suspend(continuingWith: ShortPoll(poll: poll, limit: limit, bus: bus))
        })
        return outcome == .fetching ? .suspended : .respond(poll.page)
    }

    func resumed(_ exchange: any HTTPExchanging) -> HTTPHandlerResult {
        do {
            return try step(exchange)
        } catch {
            return .respond(.error(.storeUnavailable(because: error)))
        }
    }

    private func step(_ exchange: any HTTPExchanging) throws -> HTTPHandlerResult {
        let outcome = try bus.pumpWithoutParking(poll, limit: limit, whileFetching: { exchange.suspend(continuingWith: self) })
        return outcome == .fetching ? .suspended : .respond(poll.page)
    }
}
