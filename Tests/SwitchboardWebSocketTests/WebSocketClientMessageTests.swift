import Testing
import SwitchboardCore
@testable import SwitchboardWebSocket

@Suite("WebSocket client messages")
struct WebSocketClientMessageTests {
    let limits = MessageLimits()

    func parse(_ text: String, user: String? = "luke", filter: RoomFilter = .room("lobby")) -> WebSocketClientMessage {
        WebSocketClientMessage.parse(text, user: user, filter: filter, limits: limits,
                                     access: AccessControl(verifier: nil), identity: .guest, client: "test")
    }

    @Test func publishesAsTheSocketsUserInItsRoomAndKeepsTheRefAsSent() {
        let draft = MessageDraft(room: "lobby", user: "luke", text: "hi", kind: .message)
        #expect(parse(#"{"text":"hi","ref":7}"#) == .publish(draft, media: [], ref: .number("7")))
        #expect(parse(#"{"text":"hi","ref":"a"}"#) == .publish(draft, media: [], ref: .string("a")))
        #expect(parse(#"{"text":"hi"}"#) == .publish(draft, media: [], ref: nil))
        #expect(parse(#"{"user":"leia","text":"hi","room":"b"}"#, filter: .rooms(["a", "b"]))
                == .publish(MessageDraft(room: "b", user: "leia", text: "hi", kind: .message), media: [], ref: nil))
        #expect(String(decoding: WebSocketClientMessage.ack(ref: .number("7"), id: 42), as: UTF8.self) == #"{"ack":7,"id":42}"#)
    }

    @Test func refusalsNameWhatIsWrongAndCarryTheRef() {
        func code(_ message: WebSocketClientMessage) -> String? {
            if case .refused(let error, _) = message { return error.code } else { return nil }
        }
        #expect(code(parse("not json")) == "malformed_json")
        #expect(code(parse(#"{"text":5}"#)) == "malformed_json")
        // A frame that asks for nothing known is told which frames there are, not that 'text' must be a string.
        for frame in [#"{}"#, #"{"typing":false}"#, #"{"read":2,"room":"c.1"}"#, #"{"ref":3}"#] {
            #expect(parse(frame) == .refused(SwitchboardError(.malformed, code: "malformed_json", message: WebSocketClientMessage.frames),
                                             ref: frame.contains("ref") ? .number("3") : nil), "\(frame)")
        }
        #expect(code(parse(#"{"text":"hi"}"#, user: nil)) == "user_required")
        #expect(code(parse(#"{"text":"hi"}"#, filter: .all)) == "room_required")
        #expect(code(parse(#"{"text":"hi","room":"other"}"#)) == "not_subscribed")
        #expect(code(parse(#"{"text":"","ref":1}"#)) == "empty_text")
        #expect(parse(#"{"text":"","ref":1}"#) == .refused(SwitchboardError(.invalid, code: "empty_text", message: messageOfEmptyText), ref: .number("1")))
        #expect(parse(#"{"ping":"x"}"#) == .ping(.string("x")))
        // A ref that could not come back as sent: refused, not stored and acknowledged `"ack":null`.
        for frame in [#"{"text":"hi","ref":{"n":1}}"#, #"{"text":"hi","ref":[1]}"#, #"{"text":"hi","ref":[[1]]}"#, #"{"ping":{"t":1}}"#,
                      #"{"unsend":3,"ref":[3]}"#] {
            #expect(code(parse(frame)) == "malformed_json", "\(frame)")
        }
        #expect(String(decoding: WebSocketClientMessage.error(SwitchboardError(.invalid, code: "c", message: "m\"q"), ref: .string("r")),
                       as: UTF8.self) == #"{"error":{"code":"c","message":"m\"q"},"ref":"r"}"#)
        #expect(code(parse(#"{"text":"hi","user":"system"}"#)) == "reserved_user", "one validation on every transport")
    }

    var messageOfEmptyText: String {
        guard case .refused(let error, _) = parse(#"{"text":""}"#) else { return "" }
        return error.message
    }

    @Test func closeCodesAPeerMaySend() {
        for code: UInt16 in [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999] {
            #expect(WebSocketClose.isValidReceived(code), "\(code)")
        }
        for code: UInt16 in [0, 999, 1004, 1005, 1006, 1012, 1013, 1014, 1015, 1016, 1100, 2000, 2999, 5000] {
            #expect(!WebSocketClose.isValidReceived(code), "\(code)")
        }
    }
}
