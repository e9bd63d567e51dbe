import MicroHTTPD
import NIOHTTP1
import SwitchboardCore
import SwitchboardHTTP

/// What the handshake of one connection decided: the request accepted, or
/// the answer that refuses it. Touched on the connection's event loop only.
final class HandshakeOutcome: @unchecked Sendable {
    private(set) var accepted: WebSocketRequest?
    private(set) var refusal: HTTPResponse?

    /// Accepts (empty extra headers) or refuses (nil, the refusal kept for ``HandshakeRefusal``).
    func decide(_ head: HTTPRequestHead, client: String?, server: WebSocketServer,
                identity: @escaping (HTTPRequest) throws -> Identity) -> HTTPHeaders? {
        guard head.version != .http1_0 else {
            refusal = .error(WebSocketHandshake.needsHTTP11)
            return nil
        }
        do {
            let request = try RequestLine.request(method: head.method.rawValue, uri: head.uri,
                                                  headers: head.headers.map { ($0.name, $0.value) }, clientAddress: client)
            guard let asked = try server.accept(request, identity: { try identity(request) }, checkHandshake: false) else {
                refusal = .error(SwitchboardError(.notFound, code: "not_found", message: "This port serves WebSocket paths only."))
                return nil
            }
            accepted = asked
            return HTTPHeaders()
        } catch let error as SwitchboardError {
            refusal = .error(error)
        } catch {
            refusal = .error(.storeUnavailable(because: error))
        }
        return nil
    }
}
