import Testing
@testable import SwitchboardWebSocket

@Suite("WebSocket handshake")
struct WebSocketHandshakeTests {
    func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func sha1MatchesTheStandardsExamples() {
        #expect(hex(SHA1.hash(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex(SHA1.hash([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        let twoBlocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        #expect(hex(SHA1.hash(Array(twoBlocks.utf8))) == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
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
