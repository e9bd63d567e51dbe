import Synchronization

/// One caller waiting for the store, answered exactly once: with the
/// outcome, or with `store_unavailable` at its deadline, whichever comes
/// first. Work that has not begun by the deadline never begins (``begin()``
/// is false), so a refusal before it started means "not done".
final class StoreTicket<Outcome: Sendable>: Expiring {
    private static var waiting: Int { 0 }
    private static var underWay: Int { 1 }
    private static var answered: Int { 2 }

    private let stage = Atomic<Int>(0)
    private let completion: @Sendable (Result<Outcome, SwitchboardError>) -> Void

    init(_ completion: @escaping @Sendable (Result<Outcome, SwitchboardError>) -> Void) {
        self.completion = completion
    }

    /// Called before the work starts: false when the deadline came first
    /// (the caller was told, and the work must be skipped).
    func begin() -> Bool {
        stage.compareExchange(expected: Self.waiting, desired: Self.underWay, ordering: .acquiringAndReleasing).exchanged
    }

    /// The work's outcome: passed on unless the deadline answered first.
    func finish(_ outcome: Result<Outcome, SwitchboardError>) {
        if stage.exchange(Self.answered, ordering: .acquiringAndReleasing) != Self.answered { completion(outcome) }
    }

    var isAnswered: Bool { stage.load(ordering: .acquiring) == Self.answered }

    /// The deadline: answers `error` unless the work has answered already.
    @discardableResult
    func expire(_ error: SwitchboardError) -> Bool {
        guard stage.exchange(Self.answered, ordering: .acquiringAndReleasing) != Self.answered else { return false }
        completion(.failure(error))
        return true
    }
}
