/// Whether a guest (no token) may use the server.
public enum AccessMode: String, Sendable, CaseIterable {
    /// Guests read public rooms and speak under any name not registered.
    case open
    /// Every request needs a token, but for health, metrics, pages,
    /// registration and sign-in.
    case required
}
