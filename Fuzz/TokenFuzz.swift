// libFuzzer target for token parsing: what a client presents as a JWT
// (`Authorization: Bearer`, `?access_token=`, the session cookie) goes to
// JWTTokenVerifier, which hands it to jwt-kit and then reads its claims.
// Built by Scripts/fuzz.sh (TARGETS=token) in a package of its own with
// jwt-kit and swift-crypto, from SwitchboardCore's sources, the verifier's
// files and this one, as one module.
//
// Input layout: the first byte picks the case; the rest is its input.
//   even: the bytes as the token itself (mostly refused at the parser);
//   odd:  the bytes as a token's claims (JSON), signed here with the key
//         the verifier holds, so that every claim check is reached.
// Either way the verifier answers claims or `invalidToken`, never crashes,
// and claims it accepts are within the limits.
import Crypto
import Foundation

private let key = Array("switchboard fuzzing key, 32 bytes or more".utf8)
private let keys = try! TokenKeys.load(serverKey: key)
private let verifier = JWTTokenVerifier(keys: keys)
private let limits = MessageLimits()
private let now: Int64 = 1_800_000_000_000

@_cdecl("LLVMFuzzerTestOneInput")
public func tokenFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = bytes.first else { return 0 }
    let input = Array(bytes.dropFirst())
    let token = first % 2 == 0 ? String(decoding: input, as: UTF8.self) : signed(claims: input)
    do {
        let claims = try verifier.verify(token, now: now)
        precondition((try? limits.validUser(claims.user)) == claims.user, "an accepted token names a valid user")
        precondition(claims.expires > now, "an accepted token has not expired")
    } catch {
        precondition(error.code == "invalid_token", "a token is refused as invalid_token, not \(error)")
        // Compared as bytes: Foundation's String.contains stops at a NUL.
        precondition(token.utf8.count < 24 || Array(error.message.utf8).firstRange(of: Array(token.utf8)) == nil,
                     "a refusal never quotes the token")
    }
    return 0
}

/// `claims` as the payload of an HS256 JWT signed with the verifier's key.
private func signed(claims: [UInt8]) -> String {
    let header = base64URL(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
    let input = header + "." + base64URL(claims)
    let signature = HMAC<SHA256>.authenticationCode(for: Array(input.utf8), using: SymmetricKey(data: key))
    return input + "." + base64URL(Array(signature))
}

private func base64URL(_ bytes: [UInt8]) -> String {
    Data(bytes).base64EncodedString()
        .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
}
