import Dispatch
import MicroHTTPD
import Synchronization
import Testing
@testable import SwitchboardHTTP

/// A request waiting for the store is left unanswered for a pass, answered
/// then if the store has answered, or else suspended and resumed once by
/// the store's answer: never resumed without having been suspended, never
/// left suspended with its answer given.
@Suite("Pending answer")
struct PendingAnswerTests {
    /// Records what a waiting answer does to its exchange (no daemon).
    final class RecordingExchange: HTTPExchanging, @unchecked Sendable {
        let calls = Mutex<[String]>([])
        /// The continuation asked again at the next pass (set on the test's thread).
        var given: (any HTTPContinuation)?
        let method = "POST", path = "/api/rooms/lobby/messages", body: [UInt8] = [], bodyFailure: String? = nil
        var request: HTTPRequest { HTTPRequest(method: method, path: path) }
        var responseHeaders: [(name: String, value: String)] = []
        var clientAddress: String? { "127.0.0.1" }
        func takeBodySink() -> (any HTTPBodySink)? { nil }
        func query(_ name: String) -> String? { nil }
        func header(_ name: String) -> String? { nil }
        func onCompletion(_ handler: @escaping @Sendable (HTTPCompletion) -> Void) {}
        func suspend() { record("suspend") }
        func suspend(continuingWith continuation: any HTTPContinuation) { record("suspend") }
        func askAgain(continuingWith continuation: any HTTPContinuation) {
            given = continuation
            record("askAgain")
        }
        func watchHangup(_ handler: @escaping @Sendable () -> Void) {}
        func resume() { record("resume") }
        func resumeInTurn() { record("resume") }
        private func record(_ call: String) { calls.withLock { $0.append(call) } }
    }

    /// The store's answer, handed over by a test as the commit thread would.
    final class Store: @unchecked Sendable {
        let done = Mutex<(@Sendable (Int) -> Void)?>(nil)
        func answer(_ value: Int) { done.withLock { $0 }?(value) }
    }

    private func status(_ result: HTTPHandlerResult) -> Int? {
        if case .respond(let response) = result { return response.status }
        return nil
    }

    /// The next pass: libmicrohttpd asks the continuation the exchange was given.
    private func ask(_ exchange: RecordingExchange, _ pending: any HTTPContinuation) -> HTTPHandlerResult {
        pending.resumed(exchange)
    }

    /// A waiting answer on `exchange` whose store is `store`: the continuation it was given.
    private func waiting(_ exchange: RecordingExchange, _ store: Store) throws -> any HTTPContinuation {
        let result = PendingAnswer.wait(exchange, awaiting: Int.self, until: { done in store.done.withLock { $0 = done } },
                                        answer: { HTTPResponse(status: 200 + $0) })
        guard case .askedAgain = result else { throw NotAskedAgain() }
        return try #require(exchange.given)
    }

    struct NotAskedAgain: Error {}

    @Test func answeredBeforeTheNextPassIsAnsweredThenWithoutSuspending() throws {
        let exchange = RecordingExchange(), store = Store()
        let pending = try waiting(exchange, store)
        store.answer(1)
        #expect(status(ask(exchange, pending)) == 201)
        #expect(exchange.calls.withLock { $0 } == ["askAgain"])
    }

    @Test func notAnsweredByTheNextPassIsSuspendedAndResumedOnceByTheAnswer() throws {
        let exchange = RecordingExchange(), store = Store()
        let pending = try waiting(exchange, store)
        guard case .suspended = ask(exchange, pending) else { Issue.record("not suspended"); return }
        #expect(exchange.calls.withLock { $0 } == ["askAgain", "suspend"])
        store.answer(2)
        #expect(exchange.calls.withLock { $0 } == ["askAgain", "suspend", "resume"])
        #expect(status(ask(exchange, pending)) == 202)
    }

    /// Resumed by something else while suspended (nothing does today): it
    /// answers 503 at once, and the store's later answer resumes nothing.
    @Test func resumedBeforeTheAnswerAnswersUnavailableAndIsNotResumedAgain() throws {
        let exchange = RecordingExchange(), store = Store()
        let pending = try waiting(exchange, store)
        guard case .suspended = ask(exchange, pending) else { Issue.record("not suspended"); return }
        #expect(status(ask(exchange, pending)) == 503)
        store.answer(4)
        #expect(exchange.calls.withLock { $0 } == ["askAgain", "suspend"])
    }

    /// The answer and the next pass at the same moment, many times: either
    /// answered at the pass with no suspension, or suspended then resumed
    /// exactly once, and the answer given either way.
    @Test func theAnswerRacingTheNextPassIsNeitherLostNorResumedUnsuspended() throws {
        for _ in 0..<2_000 {
            let exchange = RecordingExchange(), store = Store()
            let pending = try waiting(exchange, store)
            let answered = DispatchSemaphore(value: 0)
            DispatchQueue.global().async { store.answer(3); answered.signal() }
            let first = ask(exchange, pending)
            answered.wait()
            let calls = exchange.calls.withLock { $0 }
            if let status = status(first) {
                #expect(status == 203)
                #expect(calls == ["askAgain"])
            } else {
                #expect(calls == ["askAgain", "suspend", "resume"])
                #expect(status(ask(exchange, pending)) == 203)
            }
        }
    }
}
