import Foundation
import Testing
import SwitchboardCore
@testable import SwitchboardHTTP

@Suite("HTTP JSON shapes")
struct HTTPJSONTests {
    let message = Message(id: 42, room: "lobby", user: "luke", text: "hi", kind: .message, ts: 1)

    @Test func pageJoinsPreEncodedMessages() throws {
        let a = EncodedMessage(message)
        var other = message
        other.id = 43
        let page = HTTPJSON.page([a, EncodedMessage(other)], next: 43)
        let object = try JSONSerialization.jsonObject(with: Data(page)) as? [String: Any]
        #expect((object?["messages"] as? [Any])?.count == 2)
        #expect(object?["next"] as? Int == 43)
        #expect(String(decoding: HTTPJSON.page([], next: 7), as: UTF8.self) == #"{"messages":[],"next":7}"#)
    }

    @Test func errorsAreTheEnvelopeWithTheirKindsStatus() throws {
        let error = SwitchboardError(.invalid, code: "too_long", message: "Too long.")
        #expect(String(decoding: HTTPJSON.error(error), as: UTF8.self) == #"{"error":{"code":"too_long","message":"Too long."}}"#)
        #expect(error.httpStatus == 422)
        #expect(SwitchboardError.shuttingDown.httpStatus == 503)
    }

    @Test(arguments: [("lobby", 1), ("café-ü", 9_007_199_254_740_993), ("a", Int64.max)] as [(String, Int64)])
    func createdAnswersWithTheStoredMessageAndItsLocation(_ room: String, _ id: Int64) {
        var stored = message
        (stored.room, stored.id) = (room, id)
        let created = Publish.created(EncodedMessage(stored))
        #expect(created.status == 201)
        #expect(created.headers.map(\.name) == ["Content-Type", "Cache-Control", "Location"])
        #expect(created.headers.last?.value == "/api/rooms/\(room)/messages/\(id)")
        stored.replayed = true
        #expect(Publish.created(EncodedMessage(stored)).status == 200)
    }
}

