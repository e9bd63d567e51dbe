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
    /// The answer's maker, in a struct: a bare closure in `Mutex`'s generic
    /// storage was kept behind a reabstraction thunk of its own.
    private struct Answer {
        let make: @Sendable () throws -> HTTPHandlerResult
    }

    private let answer = Mutex<Answer?>(nil)

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
        let pending = suspending(exchange)
        start { [unowned exchange] outcome in pending.complete(exchange) { try answer(outcome) } }
        return .suspended
    }

    /// A publish waiting for its commit: 201 with the stored message (200
    /// for a client id sent again), or the error. Not through the generic
    /// ``suspend(_:awaiting:until:then:)``: its `done`, passed on as a
    /// publish's completion, was a reabstraction thunk (an allocation on
    /// libmicrohttpd's loop, a free on the commit thread) and its answer a
    /// closure around the answer.
    static func published(_ exchange: any HTTPExchanging,
                          until start: (_ done: @escaping @Sendable (Result<EncodedMessage, SwitchboardError>) -> Void) -> Void)
        -> HTTPHandlerResult {
        let pending = suspending(exchange)
        start { [unowned exchange] outcome in pending.complete(exchange) { .respond(try Publish.created(outcome.get())) } }
        return .suspended
    }

    /// A pending answer for `exchange`, suspended with it as its continuation.
    private static func suspending(_ exchange: any HTTPExchanging) -> PendingAnswer {
        let pending = PendingAnswer()
        exchange.suspend(continuingWith: pending)
        return pending
    }

    /// Keeps the answer and resumes `exchange`: from any thread, once.
    private func complete(_ exchange: any HTTPExchanging, with answer: @escaping @Sendable () throws -> HTTPHandlerResult) {
        self.answer.withLock { $0 = Answer(make: answer) }
        exchange.resume()
    }

    func resumed(_ exchange: any HTTPExchanging) -> HTTPHandlerResult {
        guard let answer = answer.withLock({ $0 }) else { return .respond(.error(.storeUnavailable("resumed before the store answered"))) }
        do {
            return try answer.make()
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
        published(exchange, until: { done in bus.publish(draft, completion: done) })
    }
}
