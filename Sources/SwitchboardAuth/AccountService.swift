import SwitchboardCore

/// Registration, sign-in, sign-out and bans: each change stored, then made
/// known to ``AccessControl`` (which every transport asks), to this node's
/// open connections, and to the other nodes. Slow on purpose where
/// passwords are hashed: call it off the request threads.
public final class AccountService: Sendable {
    /// Bytes a password may have.
    public static let passwordBytes = 8...128

    private let store: any AccountStore
    private let access: AccessControl
    private let connections: ConnectionDirectory
    private let sessions: SessionTokens
    private let hasher: PasswordHasher
    private let cluster: (any Cluster)?
    private let limits: MessageLimits
    /// Who may register.
    public let registration: RegistrationMode
    private let clock: @Sendable () -> Int64
    private let throttle: AccountThrottle

    public init(store: any AccountStore, access: AccessControl, connections: ConnectionDirectory, sessions: SessionTokens,
                hasher: PasswordHasher, cluster: (any Cluster)?, limits: MessageLimits, registration: RegistrationMode,
                throttle: AccountThrottle = AccountThrottle(signInsPerAccount: nil, signUpBurst: nil),
                clock: @escaping @Sendable () -> Int64 = MessageBus.systemClock) {
        self.throttle = throttle
        self.store = store
        self.access = access
        self.connections = connections
        self.sessions = sessions
        self.hasher = hasher
        self.cluster = cluster
        self.limits = limits
        self.registration = registration
        self.clock = clock
    }

    /// Registers `user` with `password` (`byAdmin`: the admin token was
    /// presented) for a client at `address` (counted by the throttle).
    public func register(user: String, password: String, byAdmin: Bool, address: String? = nil) throws -> Account {
        guard registration == .open || byAdmin else { throw SwitchboardError.registrationClosed }
        let user = try limits.validUser(user)
        try Self.checkPassword(password)
        if !byAdmin { try throttle.signUp(address: address) }
        // A name a reader could not tell from an account's is that account's
        // (the store's unique key is the lower-cased name; this is the rest).
        if access.isRegistered(user) { throw SwitchboardError.nameTaken }
        let now = clock()
        guard try store.createAccount(user, passwordHash: hasher.hash(password), created: now) else { throw SwitchboardError.nameTaken }
        access.registered(user)
        cluster?.accessChanged()
        return Account(user: user, created: now)
    }

    /// A new session for `user` if `password` is theirs; the same refusal
    /// for an unknown user as for a wrong password, after the same work.
    /// Attempts are counted per account and per `address` first (``AccountThrottle``).
    public func signIn(user given: String, password: String, address: String? = nil) throws -> Session {
        let valid = Result { () throws(SwitchboardError) in try limits.validUser(given) }
        let user = (try? valid.get()) ?? given
        try throttle.signIn(account: user.lowercased(), address: address)
        let stored = try store.passwordHash(of: user)
        guard hasher.verify(password, against: stored ?? hasher.decoy), stored != nil else { throw SwitchboardError.badCredentials }
        // An account whose name a later rule reserved (`who`, 2026-11-30): no
        // token, since every way in would refuse it ('sub' not a valid name).
        if case .failure(let refusal) = valid { throw refusal }
        if let until = access.bans()[user.lowercased()] { throw SwitchboardError.banned(until: until) }
        let (token, expires) = try sessions.mint(for: user, now: clock())
        return Session(token: token, user: user, expires: expires)
    }

    /// Revokes the session `claims` came from, on every node, and ends the
    /// connections opened with it.
    public func signOut(_ claims: TokenClaims) throws {
        try store.revoke(claims.revocationKey, expires: claims.expires)
        access.revoked(claims.revocationKey, expires: claims.expires)
        connections.endInvalid(access.ending)
        cluster?.accessChanged()
    }

    /// Bans `user` for `seconds`: their connections closed on every node,
    /// and they are refused until it ends. Returns its end (ms).
    public func ban(user: String, seconds: Double) throws -> Int64 {
        guard seconds > 0, seconds <= 100 * 365 * 86_400 else {
            throw SwitchboardError(.invalid, code: "invalid_seconds", message: "'seconds' is a number above 0 (at most 100 years).")
        }
        let until = clock() + Int64(seconds * 1000)
        try store.setBan(user, until: until)
        access.banned(user, until: until)
        connections.kick(user: user, reason: .banned)
        cluster?.accessChanged()
        return until
    }

    /// Lifts `user`'s ban.
    public func lift(user: String) throws {
        try store.setBan(user, until: nil)
        access.banned(user, until: nil)
        cluster?.accessChanged()
    }

    /// Every account, with the end of its ban if it is banned.
    public func accounts() throws -> [(account: Account, bannedUntil: Int64?)] {
        let bans = access.bans()
        return try store.accounts().map { ($0, bans[$0.user.lowercased()]) }
    }

    /// Reads accounts, bans and revocations from the store into
    /// ``AccessControl`` (at start, and when another node changed them),
    /// then ends the connections that may no longer stay.
    public func reload() throws {
        access.load(accounts: try store.accounts().map(\.user), bans: try store.bans(), revoked: try store.revocations(now: clock()))
        connections.endInvalid(access.ending)
    }

    static func checkPassword(_ password: String) throws {
        guard passwordBytes.contains(password.utf8.count) else {
            throw SwitchboardError(.invalid, code: "invalid_password",
                                   message: "A password is \(passwordBytes.lowerBound)-\(passwordBytes.upperBound) bytes.")
        }
    }
}
