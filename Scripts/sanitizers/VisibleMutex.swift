// Copied into each module of the ThreadSanitizer build of SwitchboardCore
// (Scripts/sanitizers.sh core), where this module's own `Mutex` shadows the
// Synchronization module's. The standard library's Mutex locks in code
// built without the sanitizer, so ThreadSanitizer does not see its lock and
// reports every access it guards; this one locks a pthread mutex, which
// ThreadSanitizer intercepts. Same interface as far as the code uses it;
// public so that it can stand for the other in a public declaration.
import Glibc

public struct Mutex<Value: ~Copyable>: ~Copyable, @unchecked Sendable {
    private final class Storage: @unchecked Sendable {
        let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        var value: Value
        init(_ value: consuming Value) {
            self.value = value
            pthread_mutex_init(lock, nil)
        }
        deinit {
            pthread_mutex_destroy(lock)
            lock.deallocate()
        }
    }

    private let storage: Storage

    public init(_ initialValue: consuming sending Value) {
        storage = Storage(initialValue)
    }

    public borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        pthread_mutex_lock(storage.lock)
        defer { pthread_mutex_unlock(storage.lock) }
        return try body(&storage.value)
    }

    public borrowing func withLockIfAvailable<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result? {
        guard pthread_mutex_trylock(storage.lock) == 0 else { return nil }
        defer { pthread_mutex_unlock(storage.lock) }
        return try body(&storage.value)
    }
}
