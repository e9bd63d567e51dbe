import Logging
import NIOCore
import NIOPosix
import NIOSSL
import NIOConcurrencyHelpers
import SwitchboardCore
import SwitchboardPush

/// The raw TCP listener: the DogeChat `iam:`/`msg:` line protocol (and `nc`)
/// on the same bus as every other transport.
public final class TCPChatServer: Sendable {
    /// The bound port.
    public let port: Int
    private let serverChannel: any Channel
    private let registry: ClientRegistry
    private let bus: MessageBus
    /// The TLS context new connections get (`--tcp-tls`), replaced by ``reloadTLS(_:)``; nil: plain.
    private let tls: NIOLockedValueBox<NIOSSLContext?>
    /// What attachments' paths follow in lines, for connections accepted from now on (``setMediaBaseURL(_:)``).
    private let mediaBase: NIOLockedValueBox<String>

    /// Binds and starts accepting on `group`.
    /// - Parameters:
    ///   - access: who a client that sends `auth:` is, and what every client may do.
    ///   - notices: typing notices, said and heard by line clients that send `typing:`.
    ///   - acts: Core's entry for publishes (the server's one, with its publish hook); nil: one of its own.
    ///   - perAddress: the limit per client address, shared with the other listeners; nil: none.
    public init(configuration: TCPServerConfiguration, bus: MessageBus, presence: Presence,
                connections: ConnectionDirectory, access: AccessControl, notices: NoticeBoard = NoticeBoard(),
                acts: MessageActService? = nil, perAddress: ConnectionsPerAddress? = nil,
                group: any EventLoopGroup, logger: Logger) throws {
        let acts = acts ?? MessageActService(bus: bus, access: access, limits: configuration.limits, media: nil)
        let registry = ClientRegistry()
        self.bus = bus
        let tls = NIOLockedValueBox(configuration.tls)
        self.tls = tls
        let mediaBase = NIOLockedValueBox(configuration.mediaBaseURL)
        self.mediaBase = mediaBase
        // One set of wake-ups a loop, shared by the loop's clients.
        var wakeups: [ObjectIdentifier: LoopWakeups] = [:]
        for loop in group.makeIterator() { wakeups[ObjectIdentifier(loop)] = LoopWakeups(eventLoop: loop) }
        let loopWakeups = wakeups
        serverChannel = try ServerBootstrap(group: group)
            .serverChannelInitializer(AcceptPause.install)
            .serverChannelOption(.backlog, value: 4096)
            .serverChannelOption(.maxMessagesPerRead, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            // A small kernel send buffer and a bounded user-space queue: past
            // it, delivery to a client that reads slowly pauses at its cursor.
            .childChannelOption(.socketOption(.so_sndbuf), value: 64 * 1024)
            .childChannelOption(.writeBufferWaterMark,
                                value: .init(low: configuration.maxQueuedBytes / 2, high: configuration.maxQueuedBytes))
            // TCP keepalive: a peer that vanished without closing (a phone
            // that lost signal) is noticed by the kernel, and leaves.
            .childChannelOption(.socketOption(.so_keepalive), value: 1)
            .childChannelOption(Self.tcpOption(TCP_KEEPIDLE), value: SocketOptionValue(configuration.keepaliveIdleSeconds))
            .childChannelOption(Self.tcpOption(TCP_KEEPINTVL), value: SocketOptionValue(configuration.keepaliveIntervalSeconds))
            .childChannelOption(Self.tcpOption(TCP_KEEPCNT), value: SocketOptionValue(configuration.keepaliveProbes))
            .childChannelInitializer { channel in
                if let perAddress, !perAddress.admit(channel) { return channel.eventLoop.makeFailedFuture(AddressLimitRefusal()) }
                registry.add(channel)
                return channel.eventLoop.makeCompletedFuture {
                    if let context = tls.withLockedValue({ $0 }) {
                        // TLS first: the line protocol sees only plaintext.
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    }
                    if let seconds = configuration.idleTimeoutSeconds {
                        // Opt-in: a timer per connection, for clients that send `ping:`.
                        try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: .seconds(Int64(seconds))))
                    }
                    var configuration = configuration
                    configuration.mediaBaseURL = mediaBase.withLockedValue { $0 }
                    try channel.pipeline.syncOperations.addHandler(
                        TCPChatHandler(bus: bus, presence: presence, connections: connections, access: access,
                                       notices: notices, acts: acts, configuration: configuration, client: channel.remoteAddress?.ipAddress ?? "unknown",
                                       wakeups: loopWakeups[ObjectIdentifier(channel.eventLoop)], logger: logger))
                }
            }
            .bind(host: configuration.host, port: configuration.port)
            .wait()
        port = serverChannel.localAddress?.port ?? configuration.port
        self.registry = registry
    }

    /// Where attachments are fetched, as lines show them (the HTTP side's
    /// address, known once it is bound): `http://HOST:PORT`.
    public func setMediaBaseURL(_ url: String) {
        mediaBase.withLockedValue { $0 = url }
    }

    private static func tcpOption(_ name: Int32) -> ChannelOptions.Types.SocketOption {
        ChannelOptions.Types.SocketOption(level: .tcp, name: NIOBSDSocket.Option(rawValue: name))
    }

    /// The most bytes queued in user space for any one client (beyond what
    /// its socket holds): bounded by `maxQueuedBytes` plus one delivery batch,
    /// however slowly a client reads.
    public func largestQueuedBytes() -> Int {
        registry.all.map { (try? $0.getOption(.bufferedWritableBytes).wait()) ?? 0 }.max() ?? 0
    }

    /// Stops accepting new clients.
    /// New connections use `context` from now on (a reloaded certificate);
    /// open ones keep theirs. Ignored on a plain listener.
    public func reloadTLS(_ context: NIOSSLContext) {
        tls.withLockedValue { if $0 != nil { $0 = context } }
    }

    public func stopAccepting() {
        try? serverChannel.close().wait()
    }

    /// Closes every client connection, waits for them to close, then for
    /// the bus's queued commits (the bus should be closed: they finish at
    /// once), so that no completion hops back to an event loop after it has stopped.
    public func closeAll() {
        stopAccepting()
        PushDelivery.closeAll(registry.all, bus: bus) { $0.close(promise: nil) }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
