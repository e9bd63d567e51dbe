import Synchronization

/// A sleep that a signal ends early: a background sender (Web Push,
/// webhooks) sleeps until its next work is due, and new work wakes it at once. A signal
/// while it is awake is kept for its next sleep, so none is missed.
public final class WakeSignal: Sendable {
    private struct State {
        var pending = false
        var sleeper: CheckedContinuation<Void, Never>?
        var generation = 0
    }
    private let state = Mutex(State())

    public init() {}

    /// Ends the current sleep, or the next one at once.
    public func signal() {
        let sleeper = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let sleeper = state.sleeper else {
                state.pending = true
                return nil
            }
            state.sleeper = nil
            return sleeper
        }
        sleeper?.resume()
    }

    /// Returns after `milliseconds`, or sooner when signalled (or cancelled).
    public func sleep(milliseconds: Int64) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let generation: Int? = state.withLock { state in
                    if state.pending {
                        state.pending = false
                        return nil
                    }
                    state.generation += 1
                    state.sleeper = continuation
                    return state.generation
                }
                guard let generation else { return continuation.resume() }
                Task {
                    try? await Task.sleep(for: .milliseconds(max(0, milliseconds)))
                    self.expire(generation)
                }
            }
        } onCancel: {
            signal()
        }
    }

    private func expire(_ generation: Int) {
        let sleeper = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.generation == generation, let sleeper = state.sleeper else { return nil }
            state.sleeper = nil
            return sleeper
        }
        sleeper?.resume()
    }
}
