import Foundation
import SwitchboardCore
import Testing
@testable import SwitchboardHooks

/// What a backend's answer to the publish hook means.
@Suite struct PublishHookAnswerTests {
    func verdict(_ body: String, status: Int = 200) -> Result<PublishVerdict, PublishHookFailure> {
        PublishHookAnswer.verdict(status: status, body: Array(body.utf8))
    }

    @Test func theThreeAnswers() {
        #expect(verdict(#"{"action":"allow"}"#) == .success(.allow))
        #expect(verdict(#"{"action":"deny","reason":"spam"}"#) == .success(.deny(reason: "spam")))
        #expect(verdict(#"{"action":"deny"}"#) == .success(.deny(reason: "")))
        #expect(verdict(#"{"action":"deny","reason":7}"#) == .success(.deny(reason: "")), "a deny, whatever its reason")
        #expect(verdict(#"{"action":"modify","text":"HI"}"#) == .success(.modify(text: "HI")))
    }

    @Test func anythingElseIsNoVerdict() {
        for body in [#"{"action":"modify"}"#, #"{"action":"maybe"}"#, #"{"verdict":"allow"}"#, "allow", "",
                     // A member given twice: which one a reader takes is its own choice.
                     #"{"action":"allow","action":"deny"}"#, #"{"action":"modify","text":"a","text":"b"}"#,
                     #"{"action":1}"#, #"{"action":"allow"} {"action":"deny"}"#, #"[{"action":"allow"}]"#] {
            guard case .failure = verdict(body) else { Issue.record("\(body) was taken as a verdict"); continue }
        }
        guard case .failure(let failure) = verdict(#"{"action":"allow"}"#, status: 500) else { Issue.record("a 500 allowed"); return }
        #expect(failure.description.contains("500"))
        guard case .failure = verdict(#"{"action":"allow"}"#, status: 302) else { Issue.record("a redirect allowed"); return }
    }
}

/// What the publish hook is sent, read back as JSON.
@Suite struct PublishHookRequestTests {
    @Test func aMessageWithEverythingItMayCarry() throws {
        var draft = MessageDraft(room: "c.3", user: "leia", text: "say \"hi\"\n", kind: .message)
        (draft.replyTo, draft.clientID, draft.location) = (7, "abc-1", Location(lat: 1.5, lon: -2, accuracy: nil))
        let body = PublishHookRequest.body(draft, media: ["m1"], ts: 99)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        #expect(object["type"] as? String == "publish")
        #expect(object["ts"] as? Int == 99)
        let data = try #require(object["data"] as? [String: Any])
        #expect(data["room"] as? String == "c.3")
        #expect(data["text"] as? String == "say \"hi\"\n")
        #expect(data["kind"] as? String == "message")
        #expect(data["reply_to"] as? Int == 7)
        #expect(data["client_id"] as? String == "abc-1")
        #expect((data["location"] as? [String: Any])?["lat"] as? Double == 1.5)
        #expect(data["media"] as? [String] == ["m1"])
    }

    @Test func anEdit() throws {
        var draft = MessageDraft(room: "lobby", user: "han", text: "better", kind: .edit)
        draft.target = 12
        let object = try #require(try JSONSerialization.jsonObject(with: Data(PublishHookRequest.body(draft, media: [], ts: 1))) as? [String: Any])
        let data = try #require(object["data"] as? [String: Any])
        #expect(data["kind"] as? String == "edit" && data["target"] as? Int == 12 && data["media"] == nil)
    }
}
