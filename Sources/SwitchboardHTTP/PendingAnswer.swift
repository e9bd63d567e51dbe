import MicroHTTPD
import Synchronization
import SwitchboardCore

/// A request waiting for the store (a publish's group commit, a deletion):
/// the connection is suspended, so no worker thread waits on the disk, and
/// resumed by the completion, which has left the answer here.
final class PendingAnswer: HTTPContinuation, Sendable {
    /// A response with bytes only, handed from the completion's thread to the worker's.
    private struct Answer: @unchecked Sendable { var response: HTTPResponse }
    private let answer = Mutex<Answer?>(nil)
    /// Makes the answer on the worker thread, when the completion left none.
    private let makeAnswer: (@Sendable () throws -> HTTPResponse)?

    private init(makeAnswer: (@Sendable () throws -> HTTPResponse)? = nil) {
        self.makeAnswer = makeAnswer
    }

    /// Suspends `exchange`, then calls `start` with the function that
    /// resumes it (from any thread, once); the answer is then made by
    /// `answer`, on the connection's worker thread.
    static func suspend(_ exchange: HTTPExchange, until start: (_ resume: @escaping @Sendable () -> Void) -> Void,
                        thenAnswer answer: @escaping @Sendable () throws -> HTTPResponse) -> HTTPHandlerResult {
        let pending = PendingAnswer(makeAnswer: answer)
        exchange.suspend(continuingWith: pending)
        start { [unowned exchange] in exchange.resume() }
        return .suspended
    }

    /// Suspends `exchange`, then calls `start` with the function that
    /// answers it (from any thread, once).
    static func suspend(_ exchange: HTTPExchange,
                        until start: (_ answer: @escaping @Sendable (HTTPResponse) -> Void) -> Void) -> HTTPHandlerResult {
        let pending = PendingAnswer()
        exchange.suspend(continuingWith: pending)
        start { [unowned exchange] response in
            pending.answer.withLock { $0 = Answer(response: response) }
            exchange.resume()
        }
        return .suspended
    }

    /// Suspends `exchange` until `draft` is stored: 201 with the stored
    /// message, or the error. The answer is made on the worker thread, so the
    /// commit thread (which every publish waits on) only hands the result over.
    static func publish(_ draft: MessageDraft, exchange: HTTPExchange, bus: MessageBus) -> HTTPHandlerResult {
        let outcome = Mutex<Result<EncodedMessage, SwitchboardError>?>(nil)
        return suspend(exchange, until: { resume in
            bus.publish(draft) { result in
                outcome.withLock { $0 = result }
                resume()
            }
        }, thenAnswer: {
            switch outcome.withLock({ $0 }) {
            case .success(let stored): return Publish.created(stored)
            case .failure(let error): return .error(error)
            case nil: return .error(.storeFailure("resumed before the commit"))
            }
        })
    }

    func resumed(_ exchange: HTTPExchange) -> HTTPHandlerResult {
        if let response = answer.withLock({ $0?.response }) { return .respond(response) }
        guard let makeAnswer else { return .respond(.error(.storeFailure("resumed before the store answered"))) }
        do {
            return .respond(try makeAnswer())
        } catch let error as SwitchboardError {
            return .respond(.error(error))
        } catch {
            return .respond(.error(.storeFailure("\(error)")))
        }
    }
}
