/// Ending connections from outside them: a kick, a ban, a sign-out or a
/// change on another node. Each closer is taken under the lock (so it runs
/// once) and called outside it; the transport then ends and calls `close(_:)`.
extension ConnectionDirectory {
    /// Closes every connection of `user` on every transport; returns how many
    /// there were. Each transport then ends and calls ``close(_:)``.
    @discardableResult
    public func kick(user: String, reason: ConnectionEnd = .kicked) -> Int {
        // A ban is on the name in any case; a kick on the name as given.
        let key = user.lowercased()
        return endAll(reason: reason) { entry in
            reason == .banned ? entry.user?.lowercased() == key || entry.identity.user?.lowercased() == key
                : entry.user == user || entry.identity.user == user
        }
    }

    /// Closes every connection whose identity `ending` says must end (after
    /// a ban, a sign-out or a change on another node); returns how many.
    @discardableResult
    public func endInvalid(_ ending: (Identity) -> ConnectionEnd?) -> Int {
        let closers = state.withLock { state in
            var closers: [(@Sendable (ConnectionEnd) -> Void, ConnectionEnd)] = []
            for (key, entry) in state.entries {
                guard let close = entry.close, let reason = ending(entry.identity) else { continue }
                closers.append((close, reason))
                state.entries[key]!.close = nil
            }
            return closers
        }
        for (close, reason) in closers { close(reason) }
        return closers.count
    }

    private func endAll(reason: ConnectionEnd, where matches: (Entry) -> Bool) -> Int {
        let closers = state.withLock { state in
            var closers: [@Sendable (ConnectionEnd) -> Void] = []
            for (key, entry) in state.entries where matches(entry) {
                if let close = entry.close { closers.append(close) }
                state.entries[key]!.close = nil
            }
            return closers
        }
        for close in closers { close(reason) }
        return closers.count
    }
}
