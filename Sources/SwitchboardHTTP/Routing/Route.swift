import MicroHTTPD

/// One endpoint of the HTTP API, declared once (``RouteTable/api``): its
/// method (`GET` answers `HEAD` too), its path, who may use it, and what
/// answers it. The router checks the access, and a `{room}` parameter
/// (a valid name the caller may read, or for ``RouteAccess/member`` a
/// conversation the caller is in), before the handler runs. A class: a
/// route is handed along every request, and a struct of strings, arrays and
/// a closure was copied (retaining each) at every hop.
final class Route: Sendable {
    /// A name for logs and tests, e.g. `publish`.
    let name: String
    let method: String
    let path: RoutePattern
    let access: RouteAccess
    let handler: @Sendable (RouteRequest) throws -> HTTPHandlerResult
    /// For a route whose body is streamed (an upload): where it goes, asked
    /// once the headers are in and the access admitted (a path with no
    /// parameters). Nil: the body is buffered, up to `maxBodyBytes`.
    let body: (@Sendable (RouteRequest) throws -> HTTPBodyReading)?

    init(_ method: String, _ path: String, _ access: RouteAccess, _ name: String,
         body: (@Sendable (RouteRequest) throws -> HTTPBodyReading)? = nil,
         _ handler: @escaping @Sendable (RouteRequest) throws -> HTTPHandlerResult) {
        self.name = name
        self.method = method
        self.path = RoutePattern(path)
        self.access = access
        self.body = body
        self.handler = handler
        precondition(body == nil || self.path.parameterNames.isEmpty, "a streamed body's route has a fixed path")
    }

    /// Whether `method` is this route's (HEAD where GET is).
    func accepts(_ method: String) -> Bool {
        method == self.method || (method == "HEAD" && self.method == "GET")
    }
}
