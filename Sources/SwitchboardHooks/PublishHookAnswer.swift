import SwitchboardCore

/// What a publish hook answered, read: `{"action":"allow"}`,
/// `{"action":"deny","reason":"…"}` or `{"action":"modify","text":"…"}`;
/// anything else is no verdict (the hook failed).
enum PublishHookAnswer {
    /// The answer nearly every publish gets, compared before any JSON is read.
    private static let allow = Array(#"{"action":"allow"}"#.utf8)

    /// Read by the strict reader every client's JSON goes through
    /// (``ClientMessageJSON``): a member given twice is no verdict, where
    /// Foundation's decoder took one of them (`{"action":"allow",
    /// "action":"deny"}` stored the message), and a proxy or a log in
    /// between may read the other.
    static func verdict(status: Int, body: [UInt8]) -> Result<PublishVerdict, PublishHookFailure> {
        guard (200..<300).contains(status) else { return .failure(PublishHookFailure("it answered HTTP \(status)")) }
        if body == allow { return .success(.allow) }
        guard let members = try? ClientMessageJSON.members(of: body, named: ["action", "reason", "text"]),
              case .string(let action)? = members["action"] else {
            return .failure(PublishHookFailure("its answer is not one JSON object with an \"action\" (each member once)"))
        }
        switch action {
        case "allow": return .success(.allow)
        case "deny":
            // A deny stands whatever its reason is: as a failure, `--publish-hook-failure allow` would store the message.
            if case .string(let reason)? = members["reason"] { return .success(.deny(reason: reason)) }
            return .success(.deny(reason: ""))
        case "modify":
            guard case .string(let text)? = members["text"] else {
                return .failure(PublishHookFailure("it answered modify without a \"text\""))
            }
            return .success(.modify(text: text))
        default: return .failure(PublishHookFailure("it answered the unknown action \"\(action)\""))
        }
    }
}
