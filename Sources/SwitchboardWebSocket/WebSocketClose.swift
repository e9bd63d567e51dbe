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

    /// The close frame's reason for an error in the pipeline, in words a
    /// client's developer reads (not the decoder's error's name).
    static func reason(for error: any Error, maxMessageBytes: Int) -> String {
        switch error {
        case NIOWebSocketError.invalidFrameLength, NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge:
            return "a message may be at most \(maxMessageBytes) bytes"
        case NIOWebSocketError.multiByteControlFrameLength: return "a control frame may carry at most 125 bytes"
        case NIOWebSocketError.fragmentedControlFrame: return "a control frame may not be fragmented"
        case NIOWebSocketFrameAggregator.Error.tooManyFragments: return "a message may come in at most \(WebSocketConfiguration.maxFragments) fragments"
        case NIOWebSocketFrameAggregator.Error.receivedNewFrameWithoutFinishingPrevious:
            return "a new message began before the last one's final fragment"
        case NIOWebSocketFrameAggregator.Error.didReceiveFragmentBeforeReceivingTextOrBinaryFrame:
            return "a continuation frame with no message to continue"
        case let refusal as ClientFrameCheck.Refusal: return refusal.reason
        default: return "not a WebSocket frame"
        }
    }
}
