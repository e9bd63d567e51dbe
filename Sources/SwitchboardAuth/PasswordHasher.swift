import Crypto
import Foundation
import HummingbirdBcrypt

/// Passwords hashed with bcrypt (HummingbirdBcrypt, over OpenBSD's C
/// implementation): salted, slow on purpose. Never logged, never stored
/// in the clear.
///
/// bcrypt reads at most 72 bytes, and stops at a NUL: a 100-byte password
/// was its first 72 bytes whatever followed, and `password1\u{0}secret`
/// was `password1`. So bcrypt is given the password's SHA-256 in base64
/// (44 bytes, no NUL: every byte of the password counts), and the hash is
/// stored with ``prefix`` before bcrypt's own `$2b$...`. A hash from before
/// (no prefix) is still checked as it was made, over the password itself.
public struct PasswordHasher: Sendable {
    /// bcrypt's cost: 2^cost rounds (10: about 60 ms a hash here).
    public let cost: UInt8

    /// A hash of no one's password at this cost: checked against when the
    /// user does not exist, so that a wrong name costs as long as a wrong password.
    public let decoy: String

    /// What marks a hash of the password's digest.
    static let prefix = "sha256:"

    public init(cost: UInt8 = 10) {
        self.cost = cost
        self.decoy = Self.prefix + Bcrypt.hash(Self.digest("switchboard decoy password"), cost: cost)
    }

    public func hash(_ password: String) -> String {
        Self.prefix + Bcrypt.hash(Self.digest(password), cost: cost)
    }

    public func verify(_ password: String, against hash: String) -> Bool {
        guard hash.hasPrefix(Self.prefix) else { return Bcrypt.verify(password, hash: hash) }
        return Bcrypt.verify(Self.digest(password), hash: String(hash.dropFirst(Self.prefix.count)))
    }

    /// The password's SHA-256, in base64: what bcrypt is given.
    static func digest(_ password: String) -> String {
        Data(SHA256.hash(data: Array(password.utf8))).base64EncodedString()
    }
}
