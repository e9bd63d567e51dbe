/// A draft's caller waiting for its group commit, answered exactly once:
/// with the stored message, or with `store_unavailable` at its deadline
/// (``StoreTicket``'s stages, through ``AnswerOnce``).
///
/// Not generic, so that it keeps the completion as it was given: a generic
/// class holds a closure in its most general form, and each
/// `StoreTicket<EncodedMessage?>` of a publish came with a reabstraction
/// thunk besides (made on libmicrohttpd's loop, freed on the commit
/// thread), and the publish wrapped its completion once more to turn a
/// message the store did not keep into an error. That turn is made here.
final class CommitTicket: Expiring {
    /// Who is told, and what they are told.
    enum Completion: Sendable {
        /// The stored message, or nil when the store did not keep it (a
        /// presence change another node announced, an act that changed nothing).
        case stored(@Sendable (Result<EncodedMessage?, SwitchboardError>) -> Void)
        /// A message that must be stored: one the store did not keep is its failure.
        case message(@Sendable (Result<EncodedMessage, SwitchboardError>) -> Void)
    }

    private static let notKept = "the store did not keep the message"

    private let once = AnswerOnce()
    private let completion: Completion

    init(_ completion: Completion) {
        self.completion = completion
    }

    /// Called before the draft is committed: false when the deadline came
    /// first (the caller was told, and the draft must not be stored).
    func begin() -> Bool {
        once.begin()
    }

    /// The commit's outcome for this draft: passed on unless the deadline answered first.
    func finish(_ outcome: Result<EncodedMessage?, SwitchboardError>) {
        guard once.take() else { return }
        switch completion {
        case .stored(let completion):
            completion(outcome)
        case .message(let completion):
            completion(outcome.flatMap { $0.map { .success($0) } ?? .failure(.storeFailure(Self.notKept)) })
        }
    }

    var isAnswered: Bool { once.isAnswered }

    /// The deadline: answers `error` unless the commit has answered already.
    @discardableResult
    func expire(_ error: SwitchboardError) -> Bool {
        guard once.take() else { return false }
        switch completion {
        case .stored(let completion): completion(.failure(error))
        case .message(let completion): completion(.failure(error))
        }
        return true
    }
}
