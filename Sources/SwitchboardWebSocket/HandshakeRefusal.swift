import MicroHTTPD
import NIOCore
import NIOHTTP1
import SwitchboardCore

/// Answers a request the upgrader did not take (no upgrade asked, or
/// refused) with the refusal as JSON, then closes: this port speaks wss only.
final class HandshakeRefusal: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let outcome: HandshakeOutcome

    init(_ outcome: HandshakeOutcome) {
        self.outcome = outcome
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .end = unwrapInboundIn(data) else { return }
        let answer = outcome.refusal ?? .error(SwitchboardError(.malformed, code: "upgrade_required",
                                                                message: "This port speaks wss only: ask for a WebSocket upgrade."))
        var headers = HTTPHeaders(answer.headers.map { ($0.name, $0.value) })
        var body = ByteBuffer()
        if case .bytes(let bytes) = answer.body { body.writeBytes(bytes) }
        headers.replaceOrAdd(name: "Content-Length", value: String(body.readableBytes))
        headers.replaceOrAdd(name: "Connection", value: "close")
        let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: answer.status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }
}
