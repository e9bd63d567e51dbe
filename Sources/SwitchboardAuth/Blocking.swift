import Dispatch
import Synchronization

/// Runs `work` (jwt-kit's API is async) and waits for it on this thread.
/// Only for CPU-bound work of microseconds (a signature, an HMAC), never for
/// I/O. The work runs on its own serial queue (a task executor preference,
/// which jwt-kit's actors follow), never on Swift's cooperative pool: so a
/// caller that is itself on that pool (a test) cannot starve it, and
/// callers on libmicrohttpd workers and event loops wait only for the work.
func blocking<Value: Sendable>(_ work: @escaping @Sendable () async throws -> Value) throws -> Value {
    let result = Mutex<Result<Value, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task(executorPreference: QueueTaskExecutor.shared) {
        let outcome: Result<Value, any Error>
        do { outcome = .success(try await work()) } catch { outcome = .failure(error) }
        result.withLock { $0 = outcome }
        done.signal()
    }
    done.wait()
    return try result.withLock { $0! }.get()
}

/// A task executor over one serial dispatch queue.
final class QueueTaskExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = QueueTaskExecutor()
    private let queue = DispatchQueue(label: "switchboard-tokens")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
