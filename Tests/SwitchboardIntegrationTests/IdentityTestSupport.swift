import Crypto
import Foundation
import SwitchboardTesting

/// Accounts and tokens for the identity tests, the way a client gets them:
/// over HTTP from the server, or minted outside it (PyJWT, or HS256 by hand
/// for a token that must expire within the test).
enum IdentityTestSupport {
    static let password = "correct horse battery"
    static let secret = "backend secret: thirty-two bytes or longer"

    /// Registers `user` and signs in: the session token.
    static func signUp(_ client: TestHTTPClient, _ user: String) throws -> String {
        let registered = try client.request("POST", "/api/accounts", headers: [("Content-Type", "application/json")],
                                            body: Array(#"{"user":"\#(user)","password":"\#(password)"}"#.utf8))
        guard registered.status == 201 else { throw TestClientError(description: "register \(user): \(registered.status) \(registered.text)") }
        return try signIn(client, user)
    }

    static func signIn(_ client: TestHTTPClient, _ user: String, password: String = password) throws -> String {
        let session = try client.request("POST", "/api/sessions", headers: [("Content-Type", "application/json")],
                                         body: Array(#"{"user":"\#(user)","password":"\#(password)"}"#.utf8))
        guard session.status == 201, let token = try session.json()["token"] as? String else {
            throw TestClientError(description: "sign in \(user): \(session.status) \(session.text)")
        }
        return token
    }

    static func bearer(_ token: String) -> [(String, String)] { [("Authorization", "Bearer \(token)")] }

    /// Publishes as `token`'s user (`user` names someone, or nobody).
    static func publish(_ client: TestHTTPClient, token: String?, user: String? = nil, text: String, room: String = "lobby") throws -> TestResponse {
        var body = #"{"text":"\#(text)""#
        if let user { body += #","user":"\#(user)""# }
        body += "}"
        return try client.request("POST", "/api/rooms/\(room)/messages",
                                  headers: [("Content-Type", "application/json")] + (token.map(bearer) ?? []), body: Array(body.utf8))
    }

    /// An HS256 JWT with `claims` (JSON), signed with `secret`.
    static func hs256(_ claims: String, secret: String = secret) -> String {
        let input = base64URL(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8)) + "." + base64URL(Array(claims.utf8))
        let mac = HMAC<SHA256>.authenticationCode(for: Array(input.utf8), using: SymmetricKey(data: Array(secret.utf8)))
        return input + "." + base64URL(Array(mac))
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static var nowSeconds: Int { Int(Date().timeIntervalSince1970) }
}

/// Tokens minted by PyJWT, the Python ecosystem's standard JWT library
/// (installed by Scripts/install-test-deps.sh): proof that what an
/// application's backend mints with it is accepted, and that PyJWT's
/// forgeries are refused. Its folder of keys goes with it (one was left in
/// /tmp by every run of the suite: 56 on this machine).
final class PyJWTMint {
    /// Folder with `rsa.pub` and `ec.pub` (PEM public keys) and their private keys.
    let folder: URL

    deinit { try? FileManager.default.removeItem(at: folder) }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-pyjwt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = try run("""
            from cryptography.hazmat.primitives.asymmetric import rsa, ec
            from cryptography.hazmat.primitives import serialization as s
            for name, key in (("rsa", rsa.generate_private_key(public_exponent=65537, key_size=2048)),
                              ("ec", ec.generate_private_key(ec.SECP256R1())),
                              ("other-rsa", rsa.generate_private_key(public_exponent=65537, key_size=2048))):
                open(f"{d}/{name}.key", "wb").write(key.private_bytes(s.Encoding.PEM, s.PrivateFormat.PKCS8, s.NoEncryption()))
                open(f"{d}/{name}.pub", "wb").write(key.public_key().public_bytes(s.Encoding.PEM, s.PublicFormat.SubjectPublicKeyInfo))
            """)
    }

    func publicKey(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent("\(name).pub"), encoding: .utf8)
    }

    /// `jwt.encode(claims, key, algorithm)`: key is `secret:TEXT` or the name of a private key here.
    func mint(_ claims: String, key: String, algorithm: String) throws -> String {
        let keyExpression = key.hasPrefix("secret:") ? "sys.argv[1]" : "open(f\"{d}/\(key).key\").read()"
        return try run("""
            import jwt, json
            print(jwt.encode(json.loads(sys.argv[2]), \(keyExpression), algorithm=sys.argv[3]))
            """, arguments: [key.hasPrefix("secret:") ? String(key.dropFirst(7)) : "", claims, algorithm])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func run(_ script: String, arguments: [String] = []) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import sys\nd = \"\(folder.path)\"\n" + script] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let failure = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestClientError(description: "python3 with PyJWT failed (Scripts/install-test-deps.sh installs it): \(failure)")
        }
        return text
    }
}
