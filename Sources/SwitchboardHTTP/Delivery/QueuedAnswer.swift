import MicroHTTPD
import SwitchboardCore

/// Work that must not hold a libmicrohttpd worker (bcrypt, store reads and
/// writes outside the group commit): the request is suspended while it
/// runs on the store gate (at most `--store-timeout`), and answered on the worker.
enum QueuedAnswer {
    /// A JSON answer made off the worker: status, body (empty: none), headers.
    typealias Answer = (status: Int, json: [UInt8], headers: [(name: String, value: String)])

    /// Suspends `exchange` while `work` runs on the store gate; its
    /// answer (or refusal) is sent on the worker. `what` names the work in
    /// the log when it fails with something other than a refusal.
    static func run(_ exchange: any HTTPExchanging, _ services: HTTPServices, what: String,
                    _ work: @escaping @Sendable () throws -> Answer) -> HTTPHandlerResult {
        PendingAnswer.wait(exchange, awaiting: Result<Answer, SwitchboardError>.self, until: { done in
            // Mostly a password checked against accounts in memory: not the store's answer.
            services.bus.gate.run(what, showsTheStoreAnswers: false, {
                do {
                    return try work()
                } catch let error as SwitchboardError {
                    throw error
                } catch {
                    // A store's summary is said (its message and code, no statement); of any
                    // other error (a password's hashing, say) only its type, as before.
                    let summary = (error as? any StoreErrorDescribing)?.summary
                    services.logger.error("\(what) failed: \(summary ?? "\(type(of: error))")")
                    throw SwitchboardError.storeUnavailable(summary ?? "the store failed")
                }
            }, completion: done)
        }, answer: { outcome in
            let answer = try outcome.get()
            if answer.json.isEmpty { return HTTPResponse(status: answer.status, headers: answer.headers, body: .bytes([])) }
            return .json(answer.status, answer.json, headers: answer.headers)
        })
    }
}
