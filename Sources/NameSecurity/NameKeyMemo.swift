import Foundation

/// Recently asked names with their comparison keys, so that a name that
/// publishes again is not worked out again: ICU's skeleton of a short name
/// costs about 20,000 instructions, about a seventh of a whole publish, and
/// a guest's name is checked at every publish.
///
/// Bounded: once `capacity` names are kept, the next new one empties it
/// (a client sending ever new names costs what it did without the memo).
/// What a name maps to never changes, so a kept key is never stale.
///
/// Guarded by an `NSLock` (a pthread mutex, which ThreadSanitizer sees),
/// not `Mutex`: under contention `Mutex` waits in libswiftSynchronization's
/// futex path, which ThreadSanitizer cannot see, and it reported the memo's
/// reads and writes as a race (CI, `Scripts/sanitizers.sh core`).
final class NameKeyMemo: @unchecked Sendable {
    private let lock = NSLock()
    // `@exclusivity(unchecked)` below: touched under `lock`
    // (docs/ARCHITECTURE.md, "Exclusivity checked where it can fail").
    @exclusivity(unchecked) private var keys: [String: String] = [:]
    private let capacity: Int

    /// - Parameter capacity: most names kept (at most 32 characters each, a
    ///   few hundred bytes with their keys).
    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The kept key of `name`, or `work(name)`, kept from now on.
    func key(_ name: String, _ work: (String) -> String) -> String {
        lock.lock()
        let known = keys[name]
        lock.unlock()
        if let known { return known }
        let key = work(name)
        lock.lock()
        if keys.count >= capacity { keys.removeAll(keepingCapacity: true) }
        keys[name] = key
        lock.unlock()
        return key
    }

    /// Whether `name`'s key is kept (for tests).
    func keeps(_ name: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return keys[name] != nil
    }

    /// How many names are kept (for tests).
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return keys.count
    }
}
