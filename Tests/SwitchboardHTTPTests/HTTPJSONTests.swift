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
}
