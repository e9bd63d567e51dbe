import NameSecurity

/// What changes what ``AccessControl`` decides: accounts registered, tokens
/// revoked, bans, and the whole set reloaded from the store (at start, and
/// on another node's change).
extension AccessControl {
    /// `user` has an account from now on: its name, and every name a reader
    /// could not tell from it, is reserved.
    public func registered(_ user: String) {
        let (key, shown) = (NameSkeleton.key(user), NameSkeleton.shownKey(user))
        state.withLock { state in
            state.registered[key] = state.registered[key] ?? user
            state.registeredShown[shown] = state.registeredShown[shown] ?? user
        }
    }

    /// Whether `user` (in any case) has an account.
    public func isRegistered(_ user: String) -> Bool {
        registeredName(user) != nil
    }

    /// The account's own spelling of `user` (named in any case, or in
    /// letters that look the same), or nil for no account.
    public func registeredName(_ user: String) -> String? {
        let (key, shown) = (NameSkeleton.key(user), NameSkeleton.shownKey(user))
        return state.withLock { $0.registered[key] ?? $0.registeredShown[shown] }
    }

    /// The token with `key` is refused from now until `expires` (when it would be anyway).
    public func revoked(_ key: String, expires: Int64) {
        state.withLock { $0.revoked[key] = expires }
    }

    /// `user` is banned until `until`, or no longer (nil).
    public func banned(_ user: String, until: Int64?) {
        state.withLock { $0.bans[user.lowercased()] = until }
    }

    /// The bans in force now: lower-cased user → end (ms).
    public func bans() -> [String: Int64] {
        let now = clock()
        return state.withLock { $0.bans.filter { $0.value > now } }
    }

    /// Replaces what is known with what the store holds (at start, and on
    /// another node's change): accounts, bans and revocations.
    public func load(accounts: [String], bans: [String: Int64], revoked: [String: Int64]) {
        let now = clock()
        let keyed = accounts.map { (NameSkeleton.key($0), $0) }, shown = accounts.map { (NameSkeleton.shownKey($0), $0) }
        state.withLock { state in
            state.registered = Dictionary(keyed, uniquingKeysWith: { first, _ in first })
            state.registeredShown = Dictionary(shown, uniquingKeysWith: { first, _ in first })
            state.bans = Dictionary(bans.filter { $0.value > now }.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: max)
            state.revoked = revoked.filter { $0.value > now }
        }
    }
}
