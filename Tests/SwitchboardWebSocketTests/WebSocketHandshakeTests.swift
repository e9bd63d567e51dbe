import Testing
@testable import SwitchboardWebSocket

@Suite("WebSocket handshake")
struct WebSocketHandshakeTests {
    /// RFC 6455's own example (section 1.3): swift-crypto's SHA-1 makes the accept value.
    @Test func theAcceptValueIsTheRFCsExample() {
        #expect(WebSocketHandshake.acceptValue(key: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func itsPathsAreItsOwn() {
        #expect(WebSocketHandshake.Path("/api/rooms/lobby/ws") == .room("lobby"))
        #expect(WebSocketHandshake.Path("/api/ws") == .rooms)
        #expect(WebSocketHandshake.Path("/api/test/ws-echo") == .echo)
        #expect(WebSocketHandshake.Path("/api/rooms/lobby/events") == nil)
        #expect(WebSocketHandshake.Path("/api/rooms/lobby/ws/x") == nil)
    }

    @Test func acceptValueIsRFC6455s() {
        #expect(WebSocketHandshake.acceptValue(key: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }
}
