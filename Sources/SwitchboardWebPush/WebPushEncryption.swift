import Crypto
import Foundation

/// A push message's body encrypted for one subscription, as RFC 8291 says
/// (`Content-Encoding: aes128gcm`, RFC 8188): an ephemeral P-256 key agreed
/// with the browser's, the subscription's auth secret, HKDF-SHA-256 and
/// AES-128-GCM, all from swift-crypto. One record: the payload, the
/// delimiter 0x02, no padding.
public enum WebPushEncryption {
    /// The record size written in the header. A payload and its delimiter fit in one record.
    static let recordSize: UInt32 = 4096

    /// Why a subscription's keys cannot be used.
    public enum KeyError: Error, Equatable {
        /// `p256dh` is not an uncompressed P-256 point (65 bytes, 0x04 first).
        case badPublicKey
        /// `auth` is not 16 bytes.
        case badAuthSecret
        /// The payload does not fit in one 4096-byte record.
        case tooLarge
    }

    /// The browser's key if a subscription's `p256dh` (an uncompressed P-256
    /// point, 65 bytes) and `auth` (16 bytes) can be encrypted for.
    public static func receiverPublicKey(_ receiverKey: [UInt8], authSecret: [UInt8]) throws(KeyError) -> P256.KeyAgreement.PublicKey {
        guard receiverKey.count == 65, receiverKey.first == 0x04,
              let receiver = try? P256.KeyAgreement.PublicKey(x963Representation: receiverKey)
        else { throw .badPublicKey }
        guard authSecret.count == 16 else { throw .badAuthSecret }
        return receiver
    }

    /// The `aes128gcm` body of `plaintext` for the browser whose key is
    /// `receiverKey` (the subscription's `p256dh`, 65 bytes) and auth secret
    /// `authSecret` (16 bytes). `senderKey` and `salt` are fresh for each
    /// message; tests pass them to reproduce a known body.
    public static func encrypt(
        _ plaintext: [UInt8], receiverKey: [UInt8], authSecret: [UInt8],
        senderKey: P256.KeyAgreement.PrivateKey = .init(), salt: [UInt8]? = nil
    ) throws(KeyError) -> [UInt8] {
        let receiver = try receiverPublicKey(receiverKey, authSecret: authSecret)
        // 16 bytes of tag, 1 of delimiter: what is left of a record for the payload.
        guard plaintext.count + 17 <= Int(recordSize) else { throw .tooLarge }
        let salt = salt ?? (0..<16).map { _ in UInt8.random(in: 0...255) }
        guard let shared = try? senderKey.sharedSecretFromKeyAgreement(with: receiver) else { throw .badPublicKey }
        let senderPublic = [UInt8](senderKey.publicKey.x963Representation)

        // RFC 8291 §3.4: IKM from the ECDH secret, keyed by the auth secret,
        // bound to both public keys.
        let keyInfo = Array("WebPush: info".utf8) + [0] + receiverKey + senderPublic
        let ikm = shared.hkdfDerivedSymmetricKey(using: SHA256.self, salt: authSecret, sharedInfo: keyInfo, outputByteCount: 32)
        // RFC 8188 §2.2 and §2.3: the content key and the nonce from the salt.
        let cek = HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, salt: salt,
                                         info: Array("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
        let nonceBytes = HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, salt: salt,
                                                info: Array("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)
        let nonce = nonceBytes.withUnsafeBytes { try! AES.GCM.Nonce(data: Data($0)) }
        let sealed = try! AES.GCM.seal(plaintext + [0x02], using: cek, nonce: nonce)

        var body = salt
        withUnsafeBytes(of: recordSize.bigEndian) { body += $0 }
        body.append(UInt8(senderPublic.count))
        body += senderPublic
        body += sealed.ciphertext
        body += sealed.tag
        return body
    }
}
