import Dispatch
import Logging
import MicroHTTPD
import NIOCore
import NIOPosix
import NIOWebSocket
import Synchronization
import SwitchboardCore
import SwitchboardPush
import SwitchboardHTTP

/// WebSocket connections, once libmicrohttpd has done the handshake: each
/// upgraded socket is adopted by SwiftNIO (NIOWebSocket's frame decoder,
/// encoder and aggregator, then a ``WebSocketConnection``). One keepalive
/// tick on the server's ``DeadlineScheduler`` pings them all; no timer per
/// connection.
public final class WebSocketServer: Sendable {
    private let group: any EventLoopGroup
    let services: WebSocketServices
    private let open = Mutex<[ObjectIdentifier: (channel: any Channel, connection: WebSocketConnection)]>([:])

    /// - Parameters:
    ///   - access: who a handshake's client is and what it may do.
    ///   - notices: typing and read notices, heard by open sockets and said by them.
    ///   - media: uploads a publish may carry (`"media":[ID]`); nil: none.
    ///   - acts: Core's entry for publishes and acts (the server's one, with its publish hook); nil: one of its own.
    public init(configuration: WebSocketConfiguration, bus: MessageBus, connections: ConnectionDirectory, access: AccessControl,
                notices: NoticeBoard = NoticeBoard(), media: MediaService? = nil, acts: MessageActService? = nil,
                group: any EventLoopGroup, scheduler: DeadlineScheduler, logger: Logger) {
        self.group = group
        services = WebSocketServices(configuration: configuration, bus: bus, connections: connections, access: access,
                                     notices: notices,
                                     acts: acts ?? MessageActService(bus: bus, access: access, limits: configuration.limits, media: media),
                                     logger: logger)
        scheduler.repeating(every: configuration.keepaliveSeconds) { [weak self] in self?.heartbeat() }
    }

    /// Adopts a socket libmicrohttpd has upgraded: its descriptor is ours to
    /// close (then `release` it: over TLS that ends libmicrohttpd's relay);
    /// its `bytesAlreadyRead` are the first bytes of the frame stream.
    func adopt(_ socket: UpgradedSocket, request: WebSocketRequest) {
        let (descriptor, bytesAlreadyRead) = (socket.descriptor, socket.bytesAlreadyRead)
        let services = self.services
        ClientBootstrap(group: group)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelOption(.writeBufferWaterMark, value: .init(low: 32 * 1024, high: 64 * 1024))
            .channelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture {
                    let maxBytes = services.configuration.maxMessageBytes
                    try channel.pipeline.syncOperations.addHandlers([
                        InitialBytesHandler(bytes: bytesAlreadyRead),
                        ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: maxBytes)),
                        WebSocketFrameEncoder(),
                    ])
                    try install(on: channel, request: request, release: socket.release)
                }
            }
            .withConnectedSocket(descriptor)
            .whenFailure { error in
                socket.release()
                services.logger.warning("could not adopt a WebSocket: \(error)")
            }
    }

    /// Adds what every WebSocket runs on (after the frame codec) and counts
    /// the channel among the open ones until it closes, then `release`s.
    /// On the channel's event loop.
    func install(on channel: any Channel, request: WebSocketRequest, release: @escaping @Sendable () -> Void) throws {
        let maxBytes = services.configuration.maxMessageBytes
        let connection = WebSocketConnection(request: request, services: services)
        try channel.pipeline.syncOperations.addHandlers([
            ClientFrameCheck(),
            NIOWebSocketFrameAggregator(minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: WebSocketConfiguration.maxFragments, maxAccumulatedFrameSize: maxBytes),
            connection,
        ])
        let key = ObjectIdentifier(channel)
        open.withLock { $0[key] = (channel, connection) }
        channel.closeFuture.whenComplete { [weak self] _ in
            release()
            _ = self?.open.withLock { $0.removeValue(forKey: key) }
        }
    }

    private func heartbeat() {
        for (channel, connection) in open.withLock({ Array($0.values) }) {
            channel.eventLoop.execute { connection.heartbeat() }
        }
    }

    /// Closes every connection with 1001 (going away), waits for them to
    /// close (at most a few seconds) and for the bus's queued commits.
    public func closeAll() {
        let all = open.withLock { Array($0.values) }
        let connections = Dictionary(all.map { (ObjectIdentifier($0.channel), $0.connection) }, uniquingKeysWith: { first, _ in first })
        PushDelivery.closeAll(all.map(\.channel), bus: services.bus) { channel in
            guard let connection = connections[ObjectIdentifier(channel)] else { return channel.close(promise: nil) }
            channel.eventLoop.execute { connection.close(code: 1001, reason: "server going away") }
        }
    }
}
