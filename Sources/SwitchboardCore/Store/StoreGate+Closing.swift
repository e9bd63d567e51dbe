import Foundation

extension StoreGate {
    /// Closes the gate before the store is closed: work still queued is
    /// answered `store_unavailable` and never runs, work asked for from now
    /// on likewise, and this waits (at most `waitSeconds`) for the work
    /// running now to return, so that no gate thread is inside the store
    /// when it closes. True when nothing was left running.
    @discardableResult
    public func close(waitSeconds: Double? = nil) -> Bool {
        let queued = state.withLock { state -> [Job] in
            state.closed = true
            return state.queue.removeAll()
        }
        for job in queued { job.refuse() }
        let deadline = Date().addingTimeInterval(waitSeconds ?? timeoutSeconds + 1)
        while state.withLock({ $0.running > 0 }) {
            guard Date() < deadline else { return false }
            usleep(1000)
        }
        return true
    }
}
