import Synchronization

/// Keeps one speaker's publishes in a room in the order they came while the
/// publish hook is asked about each at once: the hook's answers may come
/// back in any order, the drafts reach the bus in the order they were
/// taken. Speakers never wait for one another (a slow answer holds back
/// only its own speaker's later messages in that room).
final class PublishSequencer: Sendable {
    private struct Lane {
        var issued: UInt64 = 0
        var next: UInt64 = 0
        var ready: [UInt64: @Sendable () -> Void] = [:]
        var draining = false
    }

    private let lanes = Mutex<[String: Lane]>([:])

    /// A place in `key`'s line.
    func ticket(_ key: String) -> UInt64 {
        lanes.withLock { lanes in
            defer { lanes[key, default: Lane()].issued += 1 }
            return lanes[key, default: Lane()].issued
        }
    }

    /// `ticket` is answered: `then` runs once every earlier ticket of `key`
    /// has run its own, in ticket order, on the thread that answered last.
    func finish(_ key: String, _ ticket: UInt64, then: @escaping @Sendable () -> Void) {
        let drains = lanes.withLock { lanes -> Bool in
            lanes[key]?.ready[ticket] = then
            guard lanes[key]?.draining == false else { return false }
            lanes[key]?.draining = true
            return true
        }
        guard drains else { return }
        while let body = lanes.withLock({ lanes -> (@Sendable () -> Void)? in
            guard var lane = lanes[key] else { return nil }
            guard let body = lane.ready.removeValue(forKey: lane.next) else {
                lane.draining = false
                // Nothing outstanding: the lane goes, so a map of every speaker ever seen does not grow.
                lanes[key] = lane.next == lane.issued ? nil : lane
                return nil
            }
            lane.next += 1
            lanes[key] = lane
            return body
        }) {
            body()
        }
    }
}
