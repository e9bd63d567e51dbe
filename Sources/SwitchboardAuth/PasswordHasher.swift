import HummingbirdBcrypt

/// Passwords hashed with bcrypt (HummingbirdBcrypt, over OpenBSD's C
/// implementation): salted, slow on purpose. Never logged, never stored
/// in the clear.
public struct PasswordHasher: Sendable {
    /// bcrypt's cost: 2^cost rounds (10: about 60 ms a hash here).
    public let cost: UInt8

    /// A hash of no one's password at this cost: checked against when the
    /// user does not exist, so that a wrong name costs as long as a wrong password.
    public let decoy: String

    public init(cost: UInt8 = 10) {
        self.cost = cost
        self.decoy = Bcrypt.hash("switchboard decoy password", cost: cost)
    }

    public func hash(_ password: String) -> String {
        Bcrypt.hash(password, cost: cost)
    }

    public func verify(_ password: String, against hash: String) -> Bool {
        Bcrypt.verify(password, hash: hash)
    }
}
