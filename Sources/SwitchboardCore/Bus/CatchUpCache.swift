import Synchronization

/// Messages recently read back from the store (by subscribers catching up
/// from older than the ring), encoded once and shared: a thousand SSE
/// clients reconnecting after the same outage encode each message once, not
/// a thousand times. Bounded; the oldest entries go first.
final class CatchUpCache: Sendable {
    private struct State {
        var byID: [Int64: EncodedMessage] = [:]
        var order: [Int64] = []
        var head = 0
    }

    private let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The encoded form of each stored message, shared when cached.
    func encoded(_ messages: [Message]) -> [EncodedMessage] {
        state.withLock { state in
            messages.map { message in
                if let cached = state.byID[message.id] { return cached }
                let encoded = EncodedMessage(message)
                if state.order.count < capacity {
                    state.order.append(message.id)
                } else {
                    state.byID[state.order[state.head]] = nil
                    state.order[state.head] = message.id
                    state.head = (state.head + 1) % capacity
                }
                state.byID[message.id] = encoded
                return encoded
            }
        }
    }

    /// Forgets a message (it was deleted).
    func remove(_ id: Int64) {
        state.withLock { _ = $0.byID.removeValue(forKey: id) }
    }
}
