import Foundation
import SwitchboardCore

/// What a publish hook answered, read: `{"action":"allow"}`,
/// `{"action":"deny","reason":"…"}` or `{"action":"modify","text":"…"}`;
/// anything else is no verdict (the hook failed).
enum PublishHookAnswer {
    private struct Body: Decodable {
        var action: String
        var reason: String?
        var text: String?
    }

    /// The answer nearly every publish gets, compared before any JSON is decoded.
    private static let allow = Array(#"{"action":"allow"}"#.utf8)

    static func verdict(status: Int, body: [UInt8]) -> Result<PublishVerdict, PublishHookFailure> {
        guard (200..<300).contains(status) else { return .failure(PublishHookFailure("it answered HTTP \(status)")) }
        if body == allow { return .success(.allow) }
        guard let answer = try? JSONDecoder().decode(Body.self, from: Data(body)) else {
            return .failure(PublishHookFailure("its answer is not JSON with an \"action\""))
        }
        switch answer.action {
        case "allow": return .success(.allow)
        case "deny": return .success(.deny(reason: answer.reason ?? ""))
        case "modify":
            guard let text = answer.text else { return .failure(PublishHookFailure("it answered modify without a \"text\"")) }
            return .success(.modify(text: text))
        default: return .failure(PublishHookFailure("it answered the unknown action \"\(answer.action)\""))
        }
    }
}
