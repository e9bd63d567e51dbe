/// One caller waiting for the store, answered exactly once: with the
/// outcome, or with `store_unavailable` at its deadline, whichever comes
/// first. Work that has not begun by the deadline never begins (``begin()``
/// is false), so a refusal before it started means "not done".
final class StoreTicket<Outcome: Sendable>: Expiring {
    private let once = AnswerOnce()
    private let completion: @Sendable (Result<Outcome, SwitchboardError>) -> Void

    init(_ completion: @escaping @Sendable (Result<Outcome, SwitchboardError>) -> Void) {
        self.completion = completion
    }

    /// Called before the work starts: false when the deadline came first
    /// (the caller was told, and the work must be skipped).
    func begin() -> Bool {
        once.begin()
    }

    /// The work's outcome: passed on unless the deadline answered first.
    func finish(_ outcome: Result<Outcome, SwitchboardError>) {
        if once.take() { completion(outcome) }
    }

    var isAnswered: Bool { once.isAnswered }

    /// The deadline: answers `error` unless the work has answered already.
    @discardableResult
    func expire(_ error: SwitchboardError) -> Bool {
        guard once.take() else { return false }
        completion(.failure(error))
        return true
    }
}
