import NIOWebSocket

/// Close codes: which a client may send (RFC 6455, 7.4), and which the
/// server sends for each way a connection can go wrong.
enum WebSocketClose {
    /// Codes a peer may put in a close frame.
    static func isValidReceived(_ code: UInt16) -> Bool {
        (1000...1003).contains(code) || (1007...1011).contains(code) || (3000...4999).contains(code)
    }

    /// The close code for an error in the pipeline.
    static func code(for error: any Error) -> UInt16 {
        switch error {
        case NIOWebSocketError.invalidFrameLength: return 1009
        case NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge: return 1009
        default: return 1002
        }
    }
}
