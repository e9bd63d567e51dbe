/// Who may create accounts (`--registration`).
public enum RegistrationMode: String, Sendable, CaseIterable {
    /// Anyone, with `POST /api/accounts`.
    case open
    /// Only with the admin token.
    case admin
}
