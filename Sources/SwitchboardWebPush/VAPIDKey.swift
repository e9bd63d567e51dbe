import Crypto
import Foundation

/// The server's VAPID key pair (RFC 8292): a P-256 signing key. Every node
/// signs with the same one, kept in the database or read from
/// `--vapid-private-key FILE` (PEM), and browsers subscribe with its
/// public half.
public struct VAPIDKey: Sendable {
    /// The key that signs.
    public let privateKey: P256.Signing.PrivateKey

    /// A new key pair. Any point will do (browsers take it uncompressed):
    /// not swift-crypto's default "compact representable" key, drawn again
    /// until its point has one, a random number of tries at each start.
    public init() {
        privateKey = P256.Signing.PrivateKey(compactRepresentable: false)
    }

    /// The key whose 32-byte scalar is `raw` (as the database keeps it).
    public init(raw: [UInt8]) throws {
        privateKey = try P256.Signing.PrivateKey(rawRepresentation: raw)
    }

    /// The key in a PEM file (`-----BEGIN EC PRIVATE KEY-----` or PKCS #8).
    public init(pem: String) throws {
        privateKey = try P256.Signing.PrivateKey(pemRepresentation: pem)
    }

    /// The 32-byte scalar, as the database keeps it.
    public var raw: [UInt8] { [UInt8](privateKey.rawRepresentation) }

    /// The public key as browsers take it (`applicationServerKey`, and `k=`
    /// in the `Authorization` header): the uncompressed point, base64url.
    public var publicKeyBase64URL: String { Base64URL.encode(privateKey.publicKey.x963Representation) }
}
