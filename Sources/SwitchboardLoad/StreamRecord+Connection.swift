import NIOCore

extension StreamRecord {
    /// A load client's connection opened: count its one request and send it.
    func start(_ request: String, on context: ChannelHandlerContext) {
        addRequest(empty: false)
        context.writeAndFlush(NIOAny(context.channel.allocator.buffer(string: request)), promise: nil)
    }

    /// A load client's connection failed: note why and close it.
    func fail(_ error: any Error, on context: ChannelHandlerContext) {
        markFailed("\(error)")
        context.close(promise: nil)
    }
}
