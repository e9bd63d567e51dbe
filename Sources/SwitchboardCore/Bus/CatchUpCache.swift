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
                // A copy read before an act changed the message is never served for the message as it stands now.
                if let cached = state.byID[message.id], cached.message == message { return cached }
                let encoded = EncodedMessage(message)
                if state.byID[message.id] != nil {
                    state.byID[message.id] = encoded
                    return encoded
                }
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

    /// Forgets a message (it was deleted, or an act changed it).
    func remove(_ id: Int64) {
        state.withLock { _ = $0.byID.removeValue(forKey: id) }
    }
}
