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
    /// `--sign-in-rate`: password attempts a minute per account (three
    /// times as many per address); nil: unlimited.
    public var signInPerMinute: Double?
    /// `--sign-up-rate`: registrations an hour per address; nil: unlimited.
    public var signUpsPerHour: Double?
    /// `--room-rate`: new rooms a minute per user (a guest: per address); nil: unlimited.
    public var newRoomsPerMinute: Double?

    public init(mode: AccessMode = .open, registration: RegistrationMode = .open, jwtSecret: String? = nil,
                jwtPublicKeyPEM: String? = nil, sessionSeconds: Double = 7 * 86_400, publishRate: Double? = nil,
                publishBurst: Double? = nil, passwordCost: UInt8 = 10, signInPerMinute: Double? = 10, signUpsPerHour: Double? = 20,
                newRoomsPerMinute: Double? = 30) {
        self.newRoomsPerMinute = newRoomsPerMinute
        self.mode = mode
        self.registration = registration
        self.jwtSecret = jwtSecret
        self.jwtPublicKeyPEM = jwtPublicKeyPEM
        self.sessionSeconds = sessionSeconds
        self.publishRate = publishRate
        self.publishBurst = publishBurst
        self.passwordCost = passwordCost
        self.signInPerMinute = signInPerMinute
        self.signUpsPerHour = signUpsPerHour
    }
}
