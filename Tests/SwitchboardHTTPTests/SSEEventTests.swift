import Testing
import SwitchboardCore
@testable import SwitchboardHTTP

@Suite("SSE events")
struct SSEEventTests {
    let message = Message(id: 42, room: "lobby", user: "luke", text: "hi \"there\"\n/x", kind: .message, ts: 1_763_800_000_123)

    @Test func sseEventIsEncodedOnceAsOneDataLine() {
        let encoded = EncodedMessage(message)
        let frame = String(decoding: encoded.frame(SSEEvent.self), as: UTF8.self)
        #expect(frame == "id: 42\nevent: message\ndata: \(String(decoding: encoded.json, as: UTF8.self))\n\n")
        #expect(frame.split(separator: "\n").count == 3)
    }

    @Test func controlCharactersInTextStayInsideTheJSONString() {
        let evil = Message(id: 1, room: "r", user: "u", text: "a\r\nid: 9\n\ndata: x\u{1}\u{2028}", kind: .message, ts: 0)
        let frame = EncodedMessage(evil).frame(SSEEvent.self)
        #expect(!frame.dropLast(2).contains(13))
        #expect(frame.filter { $0 == 10 }.count == 4)  // the three field ends and the blank line
    }
}
