import Dispatch
import Synchronization

/// What `/healthz` asks of the store, without waiting for it: a probe
/// (can it take a write?) on the gate, answered within `within` seconds.
/// A probe still running then counts as healthy unless a store call has
/// been running longer than `--store-timeout` (``StoreGate/isStalled``):
/// a slow store is not a stalled one. One probe runs at a time.
public final class StoreProbe: Sendable {
    private let gate: StoreGate
    private let check: @Sendable () throws -> Void
    private let durableCheck: @Sendable () throws -> Void
    private let probing = Atomic<Bool>(false)

    /// - Parameters:
    ///   - check: throws unless the store can take a write (run on the gate).
    ///   - durableCheck: throws unless a durable write succeeds (run on the gate).
    public init(gate: StoreGate, check: @escaping @Sendable () throws -> Void,
                durableCheck: @escaping @Sendable () throws -> Void) {
        self.gate = gate
        self.check = check
        self.durableCheck = durableCheck
    }

    /// Calls `completion` once, within `seconds`: nil for a store that
    /// answers (or is not known to be stalled yet), else why not.
    public func health(within seconds: Double, completion: @escaping @Sendable (SwitchboardError?) -> Void) {
        let stalled = SwitchboardError(.unavailable, code: "store_unavailable",
                                       message: "The store has not answered for more than \(Self.seconds(gate.timeoutSeconds)) s.")
        if gate.isStalled() { return completion(stalled) }
        guard !probing.exchange(true, ordering: .acquiringAndReleasing) else { return completion(nil) }
        let ticket = StoreTicket<Void> { result in
            if case .failure(let error) = result { completion(error) } else { completion(nil) }
        }
        gate.run("the health probe", isAWrite: true, { [check] in
            do { try check() } catch { throw SwitchboardError.storeNotWritable(because: error) }
        }) { [self] result in
            probing.store(false, ordering: .releasing)
            ticket.finish(result.mapError { $0 == .storeTimedOut(seconds: gate.timeoutSeconds) ? stalled : $0 })
        }
        gate.deadlines.asyncAfter(deadline: .now() + seconds) { [gate] in
            ticket.finish(gate.isStalled() ? .failure(stalled) : .success(()))
        }
    }

    /// `/healthz`'s answer while the last commit was refused and no write has succeeded since.
    public static let writesRefused = SwitchboardError(.unavailable, code: "store_unavailable",
                                                       message: "The last write to the store failed, and none has succeeded since.")

    /// While the last commit was refused: calls `completion` once, within
    /// `seconds`, with nil when a durable write succeeded, else why not;
    /// `written` runs (on the gate) whenever one succeeds, late or not. One
    /// probe runs at a time: asked while one runs, the answer is the refusal.
    public func durableHealth(within seconds: Double, written: @escaping @Sendable () -> Void,
                              completion: @escaping @Sendable (SwitchboardError?) -> Void) {
        let refused = Self.writesRefused
        guard !probing.exchange(true, ordering: .acquiringAndReleasing) else { return completion(refused) }
        let ticket = StoreTicket<Void> { result in
            if case .failure(let error) = result { completion(error) } else { completion(nil) }
        }
        gate.run("a durable health write", isAWrite: true, durableCheck) { [self] result in
            probing.store(false, ordering: .releasing)
            if case .success = result { written() }
            ticket.finish(result.mapError { _ in refused })
        }
        gate.deadlines.asyncAfter(deadline: .now() + seconds) { ticket.finish(.failure(refused)) }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
