/// The routes, matched from a method and a path with no I/O: by the
/// number of segments first, then in the order declared (the hot routes of
/// every poll, stream and publish first).
struct RouteTable: Sendable {
    /// The outcome of matching a request line.
    enum Match: Sendable {
        /// A route, with its parameters' values in order.
        case route(Route, parameters: [String])
        /// No route has this path.
        case notFound
        /// The path exists but takes only these methods.
        case methodNotAllowed(allowed: [String])
        /// The path is not canonical (`//`, `.` or `..`): no route, file or upgrade (see ``RequestPath``).
        case invalidPath
    }

    let routes: [Route]
    /// Routes by their number of path segments (the index).
    private let bySegments: [[Route]]
    /// Method and path of the routes whose body is streamed: asked of every
    /// request when its headers are in, so two string comparisons a route
    /// (one route today), never a string built or hashed per request.
    private let streamedBodies: [(method: String, path: String)]

    /// Every method a route takes, for a CORS preflight: `DELETE, GET, …`.
    let methods: String

    init(_ routes: [Route]) {
        self.routes = routes
        methods = Set(routes.map(\.method) + ["HEAD", "OPTIONS"]).sorted().joined(separator: ", ")
        streamedBodies = routes.filter { $0.body != nil }.map { ($0.method, $0.path.description) }
        var bySegments = Array(repeating: [Route](), count: (routes.map(\.path.segments.count).max() ?? 0) + 1)
        for route in routes { bySegments[route.path.segments.count].append(route) }
        self.bySegments = bySegments
    }

    /// Whether `method` and `path` (exactly) are a route's whose body is streamed.
    func streamsBody(method: String, path: String) -> Bool {
        streamedBodies.contains { $0.method == method && $0.path == path }
    }

    /// Matches a path as ``RequestPath`` read it.
    func match(method: String, path: PathSegments) -> Match {
        guard path.count < bySegments.count else { return .notFound }
        let candidates = bySegments[path.count]
        for route in candidates where route.accepts(method) && route.path.fits(path) {
            return .route(route, parameters: route.path.parameters(path))
        }
        // Only the route's own methods: a GET must never kick or delete.
        var allowed: [String] = []
        for route in candidates where route.path.fits(path) && !allowed.contains(route.method) { allowed.append(route.method) }
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed: allowed.sorted())
    }

    /// Matches a raw path (read by ``RequestPath`` first).
    func match(method: String, path: String) -> Match {
        guard let read = RequestPath.read(path) else { return .invalidPath }
        return match(method: method, path: read)
    }
}
