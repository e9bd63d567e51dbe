import Foundation
import SwitchboardTesting

/// What the identity and conversation tests on several nodes share: an
/// account's session from a node, and waiting (bounded) for another node to agree.
enum NodeTestSupport {
    static let password = "correct horse battery"

    /// Signs `user` in on the node `client` talks to: the session token.
    static func session(_ client: TestHTTPClient, _ user: String) throws -> String {
        let response = try client.request("POST", "/api/sessions", body: Array("user=\(user)&password=\(password)".utf8))
        guard response.status == 201, let token = try response.json()["token"] as? String else {
            throw TestClientError(description: "sign in: \(response.status) \(response.text)")
        }
        return token
    }

    /// Registers `user` (if it is not yet) and signs in.
    static func signUp(_ client: TestHTTPClient, _ user: String) throws -> String {
        _ = try client.request("POST", "/api/accounts", body: Array("user=\(user)&password=\(password)".utf8))
        return try session(client, user)
    }

    /// Polls `check` for up to `seconds`.
    static func within(_ seconds: Double, _ check: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try check() { return true }
            usleep(20_000)
        }
        return try check()
    }
}
