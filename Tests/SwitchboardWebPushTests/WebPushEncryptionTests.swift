import Crypto
import Testing
@testable import SwitchboardWebPush

/// RFC 8291's `aes128gcm` body, byte for byte as an independent
/// implementation makes it: the vector below is Python's `http_ece`
/// (PyPI) encrypting the same payload with the same keys and salt.
@Suite struct WebPushEncryptionTests {
    static let receiverPublic = "BFFcPW6545a5BNP-yn9U_c0MwemXvzddylFa0KbDtANfRTa-OlDzGPv5pUdZAqIhUCvvDVfgjFOyzApW8X2fk1Q"
    static let senderPrivate: [UInt8] = Array(33...64)
    static let auth = "ZGVmZ2hpamtsbW5vcHFycw"
    static let salt = "yMnKy8zNzs_Q0dLT1NXW1w"
    static let body = "yMnKy8zNzs_Q0dLT1NXW1wAAEABBBB8UAUa_sbJR-E9N2-DUzc_Xev2YSpUg41eUAh-DErue7JlaCLH6dwTfPcwLUKlmUmP7dxH5X5-KRJxQluR8iSu_JQUTsJqHb9PWpXyJlXX8tgmujWoXhynkqhaPJcuvTVKlnsLKNM_G83YCXHf2"

    @Test func theBodyIsWhatAnIndependentImplementationMakes() throws {
        let sender = try P256.KeyAgreement.PrivateKey(rawRepresentation: Self.senderPrivate)
        let body = try WebPushEncryption.encrypt(
            Array(#"{"room":"c.1","text":"hello"}"#.utf8),
            receiverKey: try #require(Base64URL.decode(Self.receiverPublic)),
            authSecret: try #require(Base64URL.decode(Self.auth)),
            senderKey: sender, salt: Base64URL.decode(Self.salt))
        #expect(Base64URL.encode(body) == Self.body)
    }

    @Test func eachMessageHasItsOwnKeyAndSalt() throws {
        let receiver = try #require(Base64URL.decode(Self.receiverPublic)), auth = try #require(Base64URL.decode(Self.auth))
        let first = try WebPushEncryption.encrypt(Array("same".utf8), receiverKey: receiver, authSecret: auth)
        let second = try WebPushEncryption.encrypt(Array("same".utf8), receiverKey: receiver, authSecret: auth)
        #expect(first.count == 16 + 4 + 1 + 65 + 4 + 1 + 16)
        #expect(first[0..<16] != second[0..<16])     // the salt
        #expect(first[21..<86] != second[21..<86])   // the sender's public key
    }

    @Test func badKeysAreRefused() throws {
        let receiver = try #require(Base64URL.decode(Self.receiverPublic)), auth = try #require(Base64URL.decode(Self.auth))
        #expect(throws: WebPushEncryption.KeyError.badPublicKey) {
            try WebPushEncryption.encrypt([1], receiverKey: Array(receiver.dropLast()), authSecret: auth)
        }
        var offCurve = receiver
        offCurve[64] ^= 1
        #expect(throws: WebPushEncryption.KeyError.badPublicKey) {
            try WebPushEncryption.encrypt([1], receiverKey: offCurve, authSecret: auth)
        }
        #expect(throws: WebPushEncryption.KeyError.badAuthSecret) {
            try WebPushEncryption.encrypt([1], receiverKey: receiver, authSecret: Array(auth.dropLast()))
        }
        #expect(throws: WebPushEncryption.KeyError.tooLarge) {
            try WebPushEncryption.encrypt([UInt8](repeating: 65, count: 4080), receiverKey: receiver, authSecret: auth)
        }
    }
}
