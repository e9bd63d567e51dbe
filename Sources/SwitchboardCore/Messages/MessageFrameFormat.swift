/// A transport's wire form of one message (an SSE event, a protocol line, a
/// WebSocket frame). ``EncodedMessage/frame(_:)`` builds it at most once per
/// message, on first use, and shares it with every subscriber of that
/// transport; a transport with no subscriber never pays for it.
public protocol MessageFrameFormat: SendableMetatype {
    /// The bytes of `message` on this transport (empty: nothing to send).
    static func frame(for message: EncodedMessage) -> [UInt8]
}
