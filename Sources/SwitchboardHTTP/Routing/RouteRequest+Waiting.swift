import MicroHTTPD
import SwitchboardCore

extension RouteRequest {
    /// Suspends the exchange while a service does `start` through the store
    /// gate (refusals thrown at once are answered at once); `answer` makes
    /// the response on the worker once the service completes.
    func waiting<Value: Sendable>(
        for start: (@escaping @Sendable (Result<Value, SwitchboardError>) -> Void) throws -> Void,
        answer: @escaping @Sendable (Value) throws -> HTTPResponse
    ) -> HTTPHandlerResult {
        PendingAnswer.wait(exchange, awaiting: Result<Value, SwitchboardError>.self, until: { done in
            do { try start(done) } catch { done(.failure(.storeUnavailable(because: error))) }
        }, answer: { try answer($0.get()) })
    }
}
