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

    /// Conversations are written by hand: the same objects as the shared
    /// encoder writes (its `Encodable`), keys in its sorted order.
    @Test func conversationsAreWhatTheEncoderWouldWrite() throws {
        var last = message
        last.room = "c.7"
        last.text = "a \"quoted\" line\nand more"
        last.edited = 5
        last.replyTo = 3
        let conversation = Conversation(room: "c.7", title: "plans / \"secret\" ü", direct: false, createdBy: "leia",
                                        members: ["leia", "luke", "han\u{1}"])
        let direct = Conversation(room: "c.8", title: "", direct: true, createdBy: "luke", members: ["luke", "leia"])
        let cases = [ConversationJSON(conversation), ConversationJSON(created: ConversationEvent(type: .created, actor: "luke"), room: "c.9"),
                     ConversationJSON(ConversationSummary(conversation: conversation, muted: true, last: last, unread: 3, read: 4)),
                     ConversationJSON(ConversationSummary(conversation: direct, muted: false, last: nil, unread: 0, read: 0),
                                      read: ["luke": 9, "leia": 12, "han": 1])]
        struct NotAnObject: Error {}
        func object(_ bytes: [UInt8]) throws -> NSDictionary {
            let value = try JSONSerialization.jsonObject(with: Data(bytes))
            guard let dictionary = value as? NSDictionary else { throw NotAnObject() }
            return dictionary
        }
        for json in cases {
            #expect(try object(json.bytes) == object(MessageJSON.encode(json)), "\(String(decoding: json.bytes, as: UTF8.self))")
            let keys = try #require(String(decoding: json.bytes, as: UTF8.self).split(separator: ",").first)
            #expect(keys.hasPrefix(#"{"created_by":"#))
        }
        let summaries = [ConversationSummary(conversation: conversation, muted: true, last: last, unread: 3, read: 4),
                         ConversationSummary(conversation: direct, muted: false, last: nil, unread: 2, read: 0)]
        struct List: Encodable { var conversations: [ConversationJSON]; var unread: Int; var prev: String? }
        let page = ConversationPage(summaries: summaries, next: ConversationCursor(last: 41, room: "c.8"))
        #expect(try object(ConversationJSON.list(page, unread: 2))
            == object(MessageJSON.encode(List(conversations: summaries.map { ConversationJSON($0) }, unread: 2, prev: "41:c.8"))))
        #expect(String(decoding: ConversationJSON.list(ConversationPage(summaries: [], next: nil), unread: 0), as: UTF8.self)
            == #"{"conversations":[],"unread":0}"#)
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
        // No `Cache-Control`: an answer to a POST is not stored without freshness (PROTOCOL.md).
        #expect(created.headers.map(\.name) == ["Content-Type", "Location"])
        #expect(created.headers.last?.value == "/api/rooms/\(room)/messages/\(id)")
        stored.replayed = true
        #expect(Publish.created(EncodedMessage(stored)).status == 200)
    }
}

