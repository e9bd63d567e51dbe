/// What an application's backend answers a publish hook (SPEC "An
/// application's backend"): `{"action":"allow"}`, `{"action":"deny","reason"}`
/// or `{"action":"modify","text"}`.
public enum PublishVerdict: Sendable, Equatable {
    /// Stored as sent.
    case allow
    /// Refused: 403 `denied` with the reason.
    case deny(reason: String)
    /// Stored with this text instead.
    case modify(text: String)
}
