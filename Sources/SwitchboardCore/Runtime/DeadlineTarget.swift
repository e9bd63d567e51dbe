/// An object with a deadline on a ``DeadlineScheduler`` that keeps its own
/// place in the scheduler's heap: scheduled with no allocation (no closure,
/// no weak reference) and cancelled at once, e.g. a long poll that answers
/// before its `wait` ran out.
public protocol DeadlineTarget: AnyObject, Sendable {
    /// Where the target is in its scheduler's heap, -1 when it is not there.
    /// Set only by the scheduler, under its lock; start it at -1.
    var deadlineSlot: Int { get set }
    /// The deadline passed: called once, on the scheduler's thread, with no lock held.
    func deadlinePassed()
}
