import MicroHTTPD
import SwitchboardCore

/// What a route's handler is given: the exchange, who asked (as the
/// route's access admitted them), the path's parameters, and the parts of
/// the server it may use.
struct RouteRequest: Sendable {
    let exchange: any HTTPExchanging
    let identity: Identity
    let services: HTTPServices
    let admin: AdminEndpoints
    private let route: Route
    private let values: [String]

    init(exchange: any HTTPExchanging, identity: Identity, route: Route, parameters: [String], services: HTTPServices,
         admin: AdminEndpoints) {
        self.exchange = exchange
        self.identity = identity
        self.services = services
        self.admin = admin
        self.route = route
        values = parameters
    }

    /// The path parameter `name` (as the router checked it, for `room`).
    func parameter(_ name: String) -> String {
        route.path.parameterNames.firstIndex(of: name).map { values[$0] } ?? ""
    }

    /// `{user}`: a name as every way in reads one (trimmed, in NFKC), or
    /// 422 `invalid_user` (an admin's kick or ban of a name nobody can have
    /// answered 200).
    func user() throws(SwitchboardError) -> String { try services.limits.validUser(parameter("user")) }

    /// `{room}`: a valid name that the caller may read (checked by the router).
    var room: String { route.path.roomIndex.map { values[$0] } ?? "" }
}
