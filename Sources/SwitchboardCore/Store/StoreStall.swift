/// What the operator is told of a stalled store (``StoreGate/observeStalls(_:)``):
/// once when callers start being refused for it, once when it answers again.
public enum StoreStall: Sendable, Equatable {
    /// A caller was refused `store_unavailable` at its deadline while a
    /// store call had gone unanswered for `unansweredSeconds`.
    case began(unansweredSeconds: Double)
    /// A store call answered and none has gone unanswered past the timeout:
    /// `seconds` since the store began to keep callers waiting (not since
    /// it was said), with `refused` callers refused at their deadline
    /// meanwhile (those that led to ``began(unansweredSeconds:)`` among them).
    case ended(seconds: Double, refused: Int)
}
