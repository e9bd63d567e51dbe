import MicroHTTPD
import Synchronization
import SwitchboardCore

/// A request waiting for the store (a publish's group commit, a deletion,
/// a poll's own join): the connection is suspended, so no worker thread
/// waits on the disk. The completion only hands its outcome over and
/// resumes; the answer is made from it on the connection's worker thread,
/// never on the commit thread every publish waits on.
final class PendingAnswer<Outcome: Sendable>: HTTPContinuation, Sendable {
    private let outcome = Mutex<Outcome?>(nil)
    private let answer: @Sendable (Outcome) throws -> HTTPResponse

    private init(answer: @escaping @Sendable (Outcome) throws -> HTTPResponse) {
        self.answer = answer
    }

    /// Suspends `exchange`, then calls `start` with the function that
    /// completes it (from any thread, once); `answer` then makes the
    /// response from the outcome.
    static func suspend(_ exchange: HTTPExchange, until start: (_ done: @escaping @Sendable (Outcome) -> Void) -> Void,
                        answer: @escaping @Sendable (Outcome) throws -> HTTPResponse) -> HTTPHandlerResult {
        let pending = PendingAnswer(answer: answer)
        exchange.suspend(continuingWith: pending)
        start { [unowned exchange] outcome in
            pending.outcome.withLock { $0 = outcome }
            exchange.resume()
        }
        return .suspended
    }

    func resumed(_ exchange: HTTPExchange) -> HTTPHandlerResult {
        guard let outcome = outcome.withLock({ $0 }) else { return .respond(.error(.storeUnavailable("resumed before the store answered"))) }
        do {
            return .respond(try answer(outcome))
        } catch let error as SwitchboardError {
            return .respond(.error(error))
        } catch {
            return .respond(.error(.storeUnavailable("\(error)")))
        }
    }
}

extension PendingAnswer where Outcome == Result<EncodedMessage, SwitchboardError> {
    /// Suspends `exchange` until `draft` is stored: 201 with the stored
    /// message, or the error.
    static func publish(_ draft: MessageDraft, exchange: HTTPExchange, bus: MessageBus) -> HTTPHandlerResult {
        suspend(exchange, until: { done in bus.publish(draft, completion: done) },
                answer: { try Publish.created($0.get()) })
    }
}
