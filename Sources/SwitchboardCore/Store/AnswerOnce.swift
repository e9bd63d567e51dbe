import Synchronization

/// The stages of one wait for the store that is answered exactly once: by
/// its work or by its deadline, whichever comes first (``StoreTicket``,
/// ``CommitTicket``). Work that has not begun by the deadline never begins.
struct AnswerOnce: ~Copyable, Sendable {
    private static var waiting: Int { 0 }
    private static var underWay: Int { 1 }
    private static var answered: Int { 2 }

    private let stage = Atomic<Int>(0)

    init() {}

    /// Called before the work starts: false when the deadline came first
    /// (the caller was told, and the work must be skipped).
    func begin() -> Bool {
        stage.compareExchange(expected: Self.waiting, desired: Self.underWay, ordering: .acquiringAndReleasing).exchanged
    }

    /// Takes the one answer: true for the first to call (the work's outcome
    /// or the deadline), false for the other.
    func take() -> Bool {
        stage.exchange(Self.answered, ordering: .acquiringAndReleasing) != Self.answered
    }

    /// Whether the answer was taken.
    var isAnswered: Bool { stage.load(ordering: .acquiring) == Self.answered }
}
