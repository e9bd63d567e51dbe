import NIOSSL

/// Where wss is served on a port of its own, and with what (`--wss`).
public struct WebSocketTLSAddress: Sendable {
    public var host: String
    /// 0 picks a free one.
    public var port: Int
    public var context: NIOSSLContext

    public init(host: String, port: Int, context: NIOSSLContext) {
        self.host = host
        self.port = port
        self.context = context
    }
}
