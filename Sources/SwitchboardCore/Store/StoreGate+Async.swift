extension StoreGate {
    /// ``run(_:_:completion:)`` awaited, for a background task (Web Push's
    /// sender, the webhook dispatcher): the task is suspended, no thread waits.
    public func value<T: Sendable>(_ what: String, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            run(what, work) { continuation.resume(with: $0) }
        }
    }
}
