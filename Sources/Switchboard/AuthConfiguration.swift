import SwitchboardAuth
import SwitchboardCore

/// How a ``ChatServer`` knows who people are (SPEC "Identity and access").
public struct AuthConfiguration: Sendable {
    /// `--auth`: whether guests may use the server.
    public var mode: AccessMode
    /// `--registration`: who may create accounts.
    public var registration: RegistrationMode
    /// `--jwt-secret`: an application backend's HS256 secret, if any.
    public var jwtSecret: String?
    /// The contents of `--jwt-public-key` (PEM, RS256 or ES256), if any.
    public var jwtPublicKeyPEM: String?
    /// `--session-ttl`: seconds a session the server mints lasts.
    public var sessionSeconds: Double
    /// `--publish-rate`: publishes a second per user (per address for
    /// guests); nil: unlimited.
    public var publishRate: Double?
    /// `--publish-burst`: most at once (default twice the rate).
    public var publishBurst: Double?
    /// bcrypt's cost (2^cost rounds).
    public var passwordCost: UInt8
    /// `--sign-in-rate`: password attempts per account in 10 minutes (three
    /// times as many a minute per address); nil: unlimited.
    public var signInsPerAccount: Double?
    /// `--sign-up-rate`: registrations per address at once, and in 5 minutes; nil: unlimited.
    public var signUpBurst: Double?
    /// `--room-rate`: new rooms per user (a guest: per address) at once, and in 100 s; nil: unlimited.
    public var newRoomBurst: Double?

    public init(mode: AccessMode = .open, registration: RegistrationMode = .open, jwtSecret: String? = nil,
                jwtPublicKeyPEM: String? = nil, sessionSeconds: Double = 7 * 86_400, publishRate: Double? = nil,
                publishBurst: Double? = nil, passwordCost: UInt8 = 10, signInsPerAccount: Double? = 10, signUpBurst: Double? = 30,
                newRoomBurst: Double? = 100) {
        self.newRoomBurst = newRoomBurst
        self.mode = mode
        self.registration = registration
        self.jwtSecret = jwtSecret
        self.jwtPublicKeyPEM = jwtPublicKeyPEM
        self.sessionSeconds = sessionSeconds
        self.publishRate = publishRate
        self.publishBurst = publishBurst
        self.passwordCost = passwordCost
        self.signInsPerAccount = signInsPerAccount
        self.signUpBurst = signUpBurst
    }
}
