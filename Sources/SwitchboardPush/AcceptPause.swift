import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What a SwiftNIO listener (the line port, `--wss`) does when the kernel
/// refuses it a connection for want of a resource: out of file descriptors
/// (`EMFILE`, `ENFILE`) or memory. It stops watching for connections and
/// looks again after ``pause``, as libmicrohttpd stops accepting on the HTTP
/// port until a connection closes. Without it SwiftNIO asked again at once,
/// and again (the listening socket stays readable while its backlog waits):
/// at the open-file limit the line port's loop spun a whole core until a
/// connection went away. NIO's own `AcceptBackoffHandler` does not help
/// here: it delays the next `read`, and after a failed accept NIO asks for
/// none, it keeps the socket registered instead.
public final class AcceptPause: ChannelInboundHandler, RemovableChannelHandler {
    public typealias InboundIn = any Channel

    /// How long a listener waits after an accept failed for want of a resource.
    public static let pause = TimeAmount.milliseconds(100)

    private var paused = false

    public init() {}

    /// A listener's `serverChannelInitializer`.
    @Sendable public static func install(on channel: any Channel) -> EventLoopFuture<Void> {
        channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(AcceptPause()) }
    }

    public func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? IOError, Self.isWantOfAResource(error.errnoCode) else {
            context.fireErrorCaught(error)
            return
        }
        guard !paused, let options = context.channel.syncOptions else { return }
        paused = true
        // No interest in the listening socket while autoRead is off; on again, NIO reads (accepts) at its next readiness.
        try? options.setOption(.autoRead, value: false)
        let channel = NIOLoopBound(context.channel, eventLoop: context.eventLoop)
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        context.eventLoop.scheduleTask(in: Self.pause) {
            handler.value.paused = false
            try? channel.value.syncOptions?.setOption(.autoRead, value: true)
        }
    }

    /// Whether `code` is an accept's want of a resource, which waiting may end.
    static func isWantOfAResource(_ code: CInt) -> Bool {
        code == EMFILE || code == ENFILE || code == ENOBUFS || code == ENOMEM
    }
}
