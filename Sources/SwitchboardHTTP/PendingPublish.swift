import MicroHTTPD
import Synchronization
import SwitchboardCore

/// A publish waiting for its group commit: the connection is suspended (no
/// worker thread waits on the disk) and resumed by the commit, which then
/// answers 201 with the stored message, or the error.
final class PendingPublish: HTTPContinuation, Sendable {
    private let outcome = Mutex<Result<EncodedMessage, SwitchboardError>?>(nil)

    /// Suspends `exchange`, then queues `draft` for the next commit.
    static func start(_ draft: MessageDraft, exchange: HTTPExchange, bus: MessageBus) -> HTTPHandlerResult {
        let pending = PendingPublish()
        exchange.suspend(continuingWith: pending)
        bus.publish(draft) { [unowned exchange] result in
            pending.outcome.withLock { $0 = result }
            exchange.resume()
        }
        return .suspended
    }

    func resumed(_ exchange: HTTPExchange) -> HTTPHandlerResult {
        switch outcome.withLock({ $0 }) {
        case .success(let stored): return .respond(Publish.created(stored))
        case .failure(let error): return .respond(.error(error))
        case nil: return .respond(.error(.storeFailure("resumed before the commit")))
        }
    }
}
