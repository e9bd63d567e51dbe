import MicroHTTPD
import SwitchboardCore

/// Streams an ``SSESubscription`` as a libmicrohttpd response body: when the
/// subscription has nothing to send it parks and the connection is suspended
/// (never returning 0 without suspending, which would spin).
final class SSEStreamBody: HTTPStreamBody {
    let subscription: SSESubscription

    init(subscription: SSESubscription) {
        self.subscription = subscription
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, exchange: HTTPExchange) -> HTTPStreamRead {
        switch subscription.next(into: buffer, park: exchange.suspend) {
        case .wrote(let count): return .wrote(count)
        case .parked: return .suspended
        case .end: return .end
        }
    }

    func finish() {
        subscription.detach()
    }
}
