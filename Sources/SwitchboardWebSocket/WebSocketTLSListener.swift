import Logging
import MicroHTTPD
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket
import SwitchboardCore
import SwitchboardHTTP
import SwitchboardPush

/// wss on a port of its own (`--wss`): TLS (NIOSSL), the HTTP handshake
/// (NIOHTTP1's upgrader) and the frames all in SwiftNIO, with no
/// libmicrohttpd relay between them. The handshake is checked exactly as on
/// the HTTP port (``WebSocketServer/accept(_:identity:checkHandshake:)``,
/// with the router's identity); after the `101` the connection is the same
/// ``WebSocketConnection``.
public final class WebSocketTLSListener: Sendable {
    private let channel: any Channel
    private let tls: NIOLockedValueBox<NIOSSLContext>

    /// The bound port.
    public var port: Int { channel.localAddress?.port ?? 0 }

    /// Binds `host:port` and serves wss with `context`; `identity` says who
    /// a handshake is (the HTTP server's ``HTTPServer/upgradeIdentity(_:)``);
    /// `perAddress` is the limit per client address, shared with the other listeners.
    public init(server: WebSocketServer, host: String, port: Int, context: NIOSSLContext, group: any EventLoopGroup,
                perAddress: ConnectionsPerAddress? = nil, identity: @escaping @Sendable (HTTPRequest) throws -> Identity) throws {
        let tls = NIOLockedValueBox(context)
        self.tls = tls
        let maxBytes = server.services.configuration.maxMessageBytes
        channel = try ServerBootstrap(group: group)
            .serverChannelInitializer(AcceptPause.install)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.writeBufferWaterMark, value: .init(low: 32 * 1024, high: 64 * 1024))
            .childChannelInitializer { channel in
                if let perAddress, !perAddress.admit(channel) { return channel.eventLoop.makeFailedFuture(AddressLimitRefusal()) }
                return channel.eventLoop.makeCompletedFuture {
                    let handshake = HandshakeOutcome()
                    let refusal = HandshakeRefusal(handshake)
                    // Used again on this channel's loop only (the upgrade's pipeline handler runs there).
                    let boundRefusal = NIOLoopBound(refusal, eventLoop: channel.eventLoop)
                    let upgrader = NIOWebSocketServerUpgrader(
                        maxFrameSize: maxBytes, automaticErrorHandling: false,
                        shouldUpgrade: { channel, head in
                            channel.eventLoop.makeSucceededFuture(
                                handshake.decide(head, client: channel.remoteAddress?.ipAddress, server: server, identity: identity))
                        },
                        upgradePipelineHandler: { channel, _ in
                            guard let request = handshake.accepted else { return channel.close() }
                            return channel.eventLoop.makeCompletedFuture {
                                // Frames from here on: the HTTP side's last handler goes with the others.
                                channel.pipeline.syncOperations.removeHandler(boundRefusal.value, promise: nil)
                                try server.install(on: channel, request: request, release: {})
                            }
                        })
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls.withLockedValue { $0 }))
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                        withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
                    try channel.pipeline.syncOperations.addHandler(refusal)
                }
            }
            .bind(host: host, port: port)
            .wait()
    }

    /// New connections use `context` from now on (a reloaded certificate).
    public func reloadTLS(_ context: NIOSSLContext) {
        tls.withLockedValue { $0 = context }
    }

    /// Stops accepting; open sockets are closed with the WebSocket server's others.
    public func close() {
        channel.close(promise: nil)
    }
}
