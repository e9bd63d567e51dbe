import MicroHTTPD
import SwitchboardCore

/// A way in that starts as an HTTP request and takes the connection over
/// after a `101` (WebSocket, in its own module). The router asks it about
/// every request no API route matched, before the static files.
public protocol HTTPUpgradeEndpoint: Sendable {
    /// The answer to `request` when its path is one of this endpoint's
    /// (a `101` whose body hands the socket over, or an error); nil when it
    /// is not, so routing goes on. `identity` resolves who the client is
    /// (the one resolver every transport uses); it throws the refusal.
    func answer(_ request: HTTPRequest, identity: () throws -> Identity) throws -> HTTPResponse?
}
