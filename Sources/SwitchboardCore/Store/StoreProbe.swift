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
    private let probing = Atomic<Bool>(false)

    /// - Parameter check: throws unless the store can take a write (run on the gate).
    public init(gate: StoreGate, check: @escaping @Sendable () throws -> Void) {
        self.gate = gate
        self.check = check
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
        gate.run("the health probe", check) { [self] result in
            probing.store(false, ordering: .releasing)
            ticket.finish(result.mapError { error in
                error == .storeTimedOut(seconds: gate.timeoutSeconds) ? stalled
                    : SwitchboardError(.unavailable, code: "store_unavailable", message: "The store is not writable: \(error.message)")
            })
        }
        gate.deadlines.asyncAfter(deadline: .now() + seconds) { [gate] in
            ticket.finish(gate.isStalled() ? .failure(stalled) : .success(()))
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
