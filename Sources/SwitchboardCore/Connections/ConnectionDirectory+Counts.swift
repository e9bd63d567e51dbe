/// What the directory tells about who is connected: the admin's "who is
/// signed in", and the counts per transport (short polls counted for a
/// window after each poll).
extension ConnectionDirectory {
    /// Who is connected with a token, on which transports: for the admin's
    /// "who is signed in".
    public func signedIn() -> [String: Set<Transport>] {
        state.withLock { state in
            var users: [String: Set<Transport>] = [:]
            for entry in state.entries.values { if let user = entry.identity.user { users[user, default: []].insert(entry.transport) } }
            return users
        }
    }

    /// A short poll by `client` at `now` (monotonic ns).
    public func polled(client: String, now: UInt64 = DeadlineScheduler.now()) {
        state.withLock { $0.pollers[client] = now }
    }

    /// Clients per transport at `now`.
    public func counts(now: UInt64 = DeadlineScheduler.now()) -> [Transport: Int] {
        state.withLock { state in
            state.pollers = state.pollers.filter { now &- $0.value < Self.pollerWindowNanoseconds }
            var counts: [Transport: Int] = [:]
            for transport in Transport.allCases { counts[transport] = state.open[transport.ordinal] }
            counts[.shortPoll] = state.pollers.count
            return counts
        }
    }
}
