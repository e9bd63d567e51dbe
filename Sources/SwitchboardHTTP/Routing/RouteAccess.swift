/// Who may use a route: declared with the route (``RouteTable/api``) and
/// checked by the router on the route that matched, once.
public enum RouteAccess: Sendable, Equatable {
    /// Anyone, with no identity asked (health, metrics, signing in, registering).
    case anyone
    /// Whoever the server admits as the request's identity: a guest where `--auth open` allows one.
    case identified
    /// A signed-in user (or the admin).
    case signedIn
    /// A signed-in member of the conversation the route names (or the admin).
    case member
    /// The admin token only.
    case admin
}
