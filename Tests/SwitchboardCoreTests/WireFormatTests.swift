import Foundation
import Testing
@testable import SwitchboardCore

@Suite("Wire formats")
struct WireFormatTests {
    let message = Message(id: 42, room: "lobby", user: "luke", text: "hi \"there\"\n/x", kind: .message, ts: 1_763_800_000_123)

    @Test func messageJSONHasTheDocumentedFieldOrderAndRoundTrips() throws {
        let json = String(decoding: MessageJSON.encode(message), as: UTF8.self)
        #expect(json == #"{"id":42,"room":"lobby","user":"luke","text":"hi \"there\"\n/x","kind":"message","ts":1763800000123}"#)
        #expect(try JSONDecoder().decode(Message.self, from: Data(json.utf8)) == message)
    }

    @Test func sseEventIsEncodedOnceAsOneDataLine() {
        let encoded = EncodedMessage(message)
        let frame = String(decoding: encoded.sseFrame, as: UTF8.self)
        #expect(frame == "id: 42\nevent: message\ndata: \(String(decoding: encoded.json, as: UTF8.self))\n\n")
        #expect(frame.split(separator: "\n").count == 3)
    }

    @Test func controlCharactersInTextStayInsideTheJSONString() {
        let evil = Message(id: 1, room: "r", user: "u", text: "a\r\nid: 9\n\ndata: x\u{1}\u{2028}", kind: .message, ts: 0)
        let frame = EncodedMessage(evil).sseFrame
        #expect(!frame.dropLast(2).contains(13))
        #expect(frame.filter { $0 == 10 }.count == 4)  // the three field ends and the blank line
    }

    @Test func pageJoinsPreEncodedMessages() throws {
        let a = EncodedMessage(message)
        var other = message
        other.id = 43
        let page = MessageJSON.page([a, EncodedMessage(other)], next: 43)
        let object = try JSONSerialization.jsonObject(with: Data(page)) as? [String: Any]
        #expect((object?["messages"] as? [Any])?.count == 2)
        #expect(object?["next"] as? Int == 43)
        #expect(String(decoding: MessageJSON.page([], next: 7), as: UTF8.self) == #"{"messages":[],"next":7}"#)
    }

    @Test func outboxWritesFramesAcrossSmallBuffers() {
        var outbox = SSEOutbox()
        outbox.append(Array("hello ".utf8))
        outbox.append(Array("world".utf8))
        var collected: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4)
        while !outbox.isEmpty {
            let count = buffer.withUnsafeMutableBytes { outbox.drain(into: $0) }
            #expect(count > 0 && count <= 4)
            collected += buffer[..<count]
        }
        #expect(String(decoding: collected, as: UTF8.self) == "hello world")
    }
}
