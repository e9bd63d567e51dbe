import Synchronization

/// Recently asked names with their comparison keys, so that a name that
/// publishes again is not worked out again: ICU's skeleton of a short name
/// costs about 20,000 instructions, about a seventh of a whole publish, and
/// a guest's name is checked at every publish.
///
/// Bounded: once `capacity` names are kept, the next new one empties it
/// (a client sending ever new names costs what it did without the memo).
/// What a name maps to never changes, so a kept key is never stale.
final class NameKeyMemo: Sendable {
    private let keys = Mutex<[String: String]>([:])
    private let capacity: Int

    /// - Parameter capacity: most names kept (at most 32 characters each, a
    ///   few hundred bytes with their keys).
    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The kept key of `name`, or `work(name)`, kept from now on.
    func key(_ name: String, _ work: (String) -> String) -> String {
        if let known = keys.withLock({ $0[name] }) { return known }
        let key = work(name)
        keys.withLock { keys in
            if keys.count >= capacity { keys.removeAll(keepingCapacity: true) }
            keys[name] = key
        }
        return key
    }

    /// How many names are kept (for tests).
    var count: Int { keys.withLock { $0.count } }
}
