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
        var outbox = FrameOutbox()
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
