import NIOCore
import NIOPosix
import NIOSSL

/// A ``RequestResponseConnection`` on a SwiftNIO channel, over TLS when given a context:
/// how the load client publishes to a server that speaks only https. The
/// calling thread waits for each answer; responses need a Content-Length.
public final class ChannelHTTPConnection: RequestResponseConnection, @unchecked Sendable {
    private let channel: any Channel
    private let answers: ResponseCollector
    private let timeoutSeconds: Int64

    /// Connects to `host:port`, wrapping the connection in `tls` if given.
    public init(host: String, port: Int, tls: NIOSSLContext?, group: any EventLoopGroup, timeoutSeconds: Int64 = 15) throws {
        let answers = ResponseCollector()
        channel = try ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls { try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: tls, serverHostname: nil)) }
                    try channel.pipeline.syncOperations.addHandler(answers)
                }
            }
            .connect(host: host, port: port).wait()
        self.answers = answers
        self.timeoutSeconds = timeoutSeconds
    }

    deinit { channel.close(promise: nil) }

    public func exchange(_ method: String, _ path: String, headers: [(String, String)], body: [UInt8]) throws -> TestResponse {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        let promise = channel.eventLoop.makePromise(of: HTTPResponseFramer.Response.self)
        let request = channel.allocator.buffer(bytes: Array((head + "\r\n").utf8) + body)
        channel.eventLoop.execute { [answers, channel] in
            answers.waiting.append(promise)
            channel.writeAndFlush(request, promise: nil)
        }
        let timeout = channel.eventLoop.scheduleTask(in: .seconds(timeoutSeconds)) {
            promise.fail(TestClientError(description: "no answer to \(method) \(path) in \(self.timeoutSeconds) s"))
        }
        defer { timeout.cancel() }
        let response = try promise.futureResult.wait()
        let status = response.head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return TestResponse(status: status, headers: response.headers, body: Array(response.body))
    }

    /// Frames the answers and completes the oldest waiting request with each.
    private final class ResponseCollector: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        var waiting: [EventLoopPromise<HTTPResponseFramer.Response>] = []
        private var framer = HTTPResponseFramer()

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            framer.append(unwrapInboundIn(data).readableBytesView)
            while let response = framer.next(), !waiting.isEmpty { waiting.removeFirst().succeed(response) }
        }

        func channelInactive(context: ChannelHandlerContext) {
            for promise in waiting { promise.fail(TestClientError(description: "the server closed the connection")) }
            waiting.removeAll()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            for promise in waiting { promise.fail(error) }
            waiting.removeAll()
            context.close(promise: nil)
        }
    }
}
