import SwitchboardAuth
import SwitchboardCore
import SwitchboardStore

extension ChatServer {
    /// Who people are, made from the configuration and the store: the
    /// server's signing key (stored once, shared by every node), the token
    /// keys, ``AccessControl`` and the ``AccountService``, loaded with the
    /// accounts, bans and revocations stored, and the connection directory,
    /// which asks access control whether a connection it enters must end
    /// (and which the accounts end connections through). A store that keeps
    /// no accounts (a test's) gets an in-memory SQLite database for them.
    static func identity(_ configuration: ChatServerConfiguration, store: any MessageStore, presence: Presence,
                         scheduler: DeadlineScheduler, cluster: (any Cluster)?,
                         bus: MessageBus) throws -> (AccessControl, AccountService, ConnectionDirectory) {
        // ICU's data read now, not at the first name a client gives.
        guard MessageLimits.prepareNameChecks() else { throw NameChecksError() }
        let accountStore = try (store as? any AccountStore) ?? SQLiteMessageStore(path: ":memory:")
        let auth = configuration.auth
        var generator = SystemRandomNumberGenerator()
        let serverKey = try accountStore.signingKey(candidate: (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let keys = try TokenKeys.load(serverKey: serverKey, secret: auth.jwtSecret, publicKeyPEM: auth.jwtPublicKeyPEM)
        let access = AccessControl(mode: auth.mode, verifier: JWTTokenVerifier(keys: keys, limits: configuration.http.limits),
                                   rateLimiter: auth.publishRate.map { PublishRateLimiter(rate: $0, burst: auth.publishBurst) },
                                   roomCreation: auth.newRoomBurst.map { RoomCreationLimiter(burst: $0, isKnown: bus.isKnownRoom) },
                                   conversations: bus.conversations)
        let connections = ConnectionDirectory(presence: presence, scheduler: scheduler, standing: access.ending(_:named:))
        let accounts = AccountService(store: accountStore, access: access, connections: connections,
                                      sessions: SessionTokens(keys: keys, lifetime: auth.sessionSeconds),
                                      hasher: PasswordHasher(cost: auth.passwordCost), cluster: cluster,
                                      limits: configuration.http.limits, registration: auth.registration,
                                      throttle: AccountThrottle(signInsPerAccount: auth.signInsPerAccount, signUpBurst: auth.signUpBurst))
        try accounts.reload()
        return (access, accounts, connections)
    }
}
