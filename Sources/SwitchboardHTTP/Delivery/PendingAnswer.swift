import MicroHTTPD
import Synchronization
import SwitchboardCore

/// A request waiting for the store (a publish's group commit, a deletion,
/// a poll's own join), with no worker thread waiting on the disk: the
/// request is left unanswered until the worker's next pass, and suspended
/// then if the store has not answered yet. The completion only hands its
/// outcome over (and resumes a suspended exchange); the answer is made from
/// it on the connection's worker thread, never on the commit thread every
/// publish waits on.
///
/// Why a pass first: suspending and resuming a libmicrohttpd connection
/// costs three system calls (the suspend's `EPOLL_CTL_DEL`, the resume's
/// `EPOLL_CTL_ADD` and a read that finds nothing), more than the commit
/// of a publish in memory takes. Under load the worker's next pass comes
/// after it has read the other connections' requests, by when the commit
/// thread has often answered; with nothing else to serve it comes at once,
/// and the exchange is suspended as before (one pass more).
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

    /// The store's answer, once given, and the exchange while it is
    /// suspended for it (the completion resumes it). Held only then: a
    /// connection libmicrohttpd closed before (its client gone during the
    /// pass) ends its exchange, and the completion touches nothing freed.
    private struct State {
        var answer: Answer?
        var suspended: (any HTTPExchanging)?
    }

    private let state = Mutex(State())

    /// What an exchange asked again does next.
    private enum Next {
        case answer(Answer)
        case suspended
        case resumedUnanswered
    }

    private init() {}

    /// Calls `start` with the function that completes the wait (from any
    /// thread, once) and leaves `exchange` unanswered until the next pass,
    /// suspended then if the outcome has not come; `answer` makes the
    /// response from it on the worker.
    static func wait<Outcome: Sendable>(_ exchange: any HTTPExchanging, awaiting _: Outcome.Type = Outcome.self,
                                        until start: (_ done: @escaping @Sendable (Outcome) -> Void) -> Void,
                                        answer: @escaping @Sendable (Outcome) throws -> HTTPResponse) -> HTTPHandlerResult {
        wait(exchange, until: start, then: { .respond(try answer($0)) })
    }

    /// ``wait(_:awaiting:until:answer:)`` for an answer that may itself
    /// wait again (suspending the exchange with a continuation of its own).
    static func wait<Outcome: Sendable>(_ exchange: any HTTPExchanging, awaiting _: Outcome.Type = Outcome.self,
                                        until start: (_ done: @escaping @Sendable (Outcome) -> Void) -> Void,
                                        then answer: @escaping @Sendable (Outcome) throws -> HTTPHandlerResult) -> HTTPHandlerResult {
        let pending = waiting(exchange)
        start { outcome in pending.complete { try answer(outcome) } }
        return .askedAgain
    }

    /// A publish waiting for its commit: 201 with the stored message (200
    /// for a client id sent again), or the error. Not through the generic
    /// ``wait(_:awaiting:until:then:)``: its `done`, passed on as a
    /// publish's completion, was a reabstraction thunk (an allocation on
    /// libmicrohttpd's loop, a free on the commit thread) and its answer a
    /// closure around the answer.
    static func published(_ exchange: any HTTPExchanging,
                          until start: (_ done: @escaping @Sendable (Result<EncodedMessage, SwitchboardError>) -> Void) -> Void)
        -> HTTPHandlerResult {
        let pending = waiting(exchange)
        start { outcome in pending.complete { .respond(try Publish.created(outcome.get())) } }
        return .askedAgain
    }

    /// A pending answer for `exchange`, asked again at the next pass.
    private static func waiting(_ exchange: any HTTPExchanging) -> PendingAnswer {
        let pending = PendingAnswer()
        exchange.askAgain(continuingWith: pending)
        return pending
    }

    /// Keeps the answer, and resumes the exchange if it was suspended for
    /// it: from any thread, once.
    private func complete(with answer: @escaping @Sendable () throws -> HTTPHandlerResult) {
        let suspended = state.withLock { state in
            state.answer = Answer(make: answer)
            defer { state.suspended = nil }
            return state.suspended
        }
        suspended?.resume()
    }

    /// Asked at the pass after the request (the answer, or the exchange
    /// suspended until it comes), or resumed with the answer.
    func resumed(_ exchange: any HTTPExchanging) -> HTTPHandlerResult {
        // Suspended inside the lock: a completion that comes after finds it
        // and resumes an exchange that is suspended already.
        let next = state.withLock { state -> Next in
            if let answer = state.answer { return .answer(answer) }
            // Suspended and not answered: resumed by something else. It answers
            // now, so the store's answer must not resume it again.
            if state.suspended != nil {
                state.suspended = nil
                return .resumedUnanswered
            }
            state.suspended = exchange
            exchange.suspend(continuingWith: self)
            return .suspended
        }
        let answer: Answer
        switch next {
        case .answer(let given): answer = given
        case .suspended: return .suspended
        case .resumedUnanswered: return .respond(.error(.storeUnavailable("resumed before the store answered")))
        }
        do {
            return try answer.make()
        } catch let error as SwitchboardError {
            return .respond(.error(error))
        } catch {
            return .respond(.error(.storeUnavailable(because: error)))
        }
    }
}

extension PendingAnswer {
    /// Waits (``wait(_:awaiting:until:then:)``) while `work` reads or writes the store on the
    /// gate (at most `--store-timeout`); then `answer` makes the response
    /// from its value on the worker (a refusal or timeout is the error's answer).
    /// `showsTheStoreAnswers` false: work that answers from memory (``StoreGate/run(_:showsTheStoreAnswers:isAWrite:_:completion:)``).
    static func store<Value: Sendable>(_ exchange: any HTTPExchanging, _ services: HTTPServices, what: String,
                                       showsTheStoreAnswers: Bool = true,
                                       _ work: @escaping @Sendable () throws -> Value,
                                       then answer: @escaping @Sendable (Value) throws -> HTTPHandlerResult) -> HTTPHandlerResult {
        wait(exchange, awaiting: Result<Value, SwitchboardError>.self,
             until: { done in services.bus.gate.run(what, showsTheStoreAnswers: showsTheStoreAnswers, work, completion: done) },
             then: { try answer($0.get()) })
    }

    /// Waits until `draft` is stored: 201 with the stored
    /// message, or the error.
    static func publish(_ draft: MessageDraft, exchange: any HTTPExchanging, bus: MessageBus) -> HTTPHandlerResult {
        published(exchange, until: { done in bus.publish(draft, completion: done) })
    }
}
