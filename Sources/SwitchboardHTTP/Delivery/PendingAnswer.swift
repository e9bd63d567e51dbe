import MicroHTTPD
import Synchronization
import SwitchboardCore

/// A request waiting for the store (a publish's group commit, a deletion,
/// a poll's own join): the connection is suspended, so no worker thread
/// waits on the disk. The completion only hands its outcome over and
/// resumes; the answer is made from it on the connection's worker thread,
/// never on the commit thread every publish waits on.
///
/// Not generic itself: the completion keeps the outcome in the answer it
/// hands over (one closure). A `Mutex<Outcome?>` in a generic class had
/// the runtime look up `Optional<Outcome>`'s and `Mutex`'s metadata at
/// every answer and every deinit, about 2,000 instructions a publish on
/// libmicrohttpd's loop (callgrind).
final class PendingAnswer: HTTPContinuation, Sendable {
    private let answer = Mutex<(@Sendable () throws -> HTTPHandlerResult)?>(nil)

    private init() {}

    /// Suspends `exchange`, then calls `start` with the function that
    /// completes it (from any thread, once); `answer` then makes the
    /// response from the outcome.
    static func suspend<Outcome: Sendable>(_ exchange: any HTTPExchanging, awaiting _: Outcome.Type = Outcome.self,
                                           until start: (_ done: @escaping @Sendable (Outcome) -> Void) -> Void,
                                           answer: @escaping @Sendable (Outcome) throws -> HTTPResponse) -> HTTPHandlerResult {
        suspend(exchange, until: start, then: { .respond(try answer($0)) })
    }

    /// ``suspend(_:awaiting:until:answer:)`` for an answer that may itself
    /// wait again (suspending the exchange with a continuation of its own).
    static func suspend<Outcome: Sendable>(_ exchange: any HTTPExchanging, awaiting _: Outcome.Type = Outcome.self,
                                           until start: (_ done: @escaping @Sendable (Outcome) -> Void) -> Void,
                                           then answer: @escaping @Sendable (Outcome) throws -> HTTPHandlerResult) -> HTTPHandlerResult {
        let pending = PendingAnswer()
        exchange.suspend(continuingWith: pending)
        start { [unowned exchange] outcome in
            pending.answer.withLock { $0 = { try answer(outcome) } }
            exchange.resume()
        }
        return .suspended
    }

    func resumed(_ exchange: any HTTPExchanging) -> HTTPHandlerResult {
        guard let answer = answer.withLock({ $0 }) else { return .respond(.error(.storeUnavailable("resumed before the store answered"))) }
        do {
            return try answer()
        } catch let error as SwitchboardError {
            return .respond(.error(error))
        } catch {
            return .respond(.error(.storeUnavailable("\(error)")))
        }
    }
}

extension PendingAnswer {
    /// Suspends `exchange` while `work` reads or writes the store on the
    /// gate (at most `--store-timeout`); then `answer` makes the response
    /// from its value on the worker (a refusal or timeout is the error's answer).
    static func store<Value: Sendable>(_ exchange: any HTTPExchanging, _ services: HTTPServices, what: String,
                                       _ work: @escaping @Sendable () throws -> Value,
                                       then answer: @escaping @Sendable (Value) throws -> HTTPHandlerResult) -> HTTPHandlerResult {
        suspend(exchange, awaiting: Result<Value, SwitchboardError>.self,
                until: { done in services.bus.gate.run(what, work, completion: done) },
                then: { try answer($0.get()) })
    }

    /// Suspends `exchange` until `draft` is stored: 201 with the stored
    /// message, or the error.
    static func publish(_ draft: MessageDraft, exchange: any HTTPExchanging, bus: MessageBus) -> HTTPHandlerResult {
        suspend(exchange, awaiting: Result<EncodedMessage, SwitchboardError>.self,
                until: { done in bus.publish(draft, completion: done) },
                answer: { try Publish.created($0.get()) })
    }
}
