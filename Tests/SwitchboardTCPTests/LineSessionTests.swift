import Testing
import SwitchboardCore
@testable import SwitchboardTCP

@Suite("Line protocol session")
struct LineSessionTests {
    func say(_ session: inout LineSession, _ text: String) -> [LineSession.Action] {
        session.receive(.line(Array(text.utf8)))
    }

    func sent(_ actions: [LineSession.Action]) -> [String] {
        actions.compactMap { if case .send(let bytes) = $0 { String(decoding: bytes, as: UTF8.self) } else { nil } }
    }

    @Test func iamThenMsgEntersTheLobbyAndPublishes() {
        var session = LineSession(access: AccessControl(verifier: nil))
        #expect(say(&session, "iam: luke ") == [.enter(user: "luke", room: "lobby")])
        #expect(say(&session, "msg:hi: there") == [.publish(MessageDraft(room: "lobby", user: "luke", text: "hi: there", kind: .message))])
    }

    @Test func errorsAreOneLineAndTheSessionGoesOn() {
        var session = LineSession(access: AccessControl(verifier: nil))
        #expect(sent(say(&session, "msg:too early")) == ["error:send iam:NAME first\n"])
        #expect(sent(say(&session, "hello")).first?.hasPrefix("error:unknown command") == true)
        #expect(sent(say(&session, "dance:now")).first?.hasPrefix("error:unknown command 'dance'") == true)
        #expect(sent(say(&session, "iam:system")).first?.hasPrefix("error:") == true)
        #expect(sent(session.receive(.line([0x6D, 0x73, 0x67, 0x3A, 0xFF]))) == ["error:not valid UTF-8\n"])
        #expect(sent(session.receive(.tooLong)) == ["error:line longer than 8192 bytes, discarded\n"])
        #expect(say(&session, "") == [])
        #expect(say(&session, "iam:luke") == [.enter(user: "luke", room: "lobby")])
        #expect(sent(say(&session, "msg:")) == ["error:The text is empty.\n"])
    }

    @Test func secondIamSameNameIsIgnoredOtherNameRefused() {
        var session = LineSession(access: AccessControl(verifier: nil))
        _ = say(&session, "iam:luke")
        #expect(say(&session, "iam:luke") == [])
        #expect(sent(say(&session, "iam:vader")) == ["error:already joined as luke; reconnect to use another name\n"])
        #expect(session.user == "luke")
    }

    @Test func extensionsMoveListAndReplay() {
        var session = LineSession(access: AccessControl(verifier: nil))
        #expect(say(&session, "join:cantina") == [])  // before iam: just where iam: will enter
        #expect(say(&session, "iam:han") == [.enter(user: "han", room: "cantina")])
        #expect(say(&session, "join:lobby") == [.move(user: "han", from: "cantina", to: "lobby")])
        #expect(say(&session, "who:") == [.who(room: "lobby")])
        #expect(say(&session, "since:41") == [.replay(room: "lobby", after: 41)])
        #expect(sent(say(&session, "since:x")).first?.hasPrefix("error:") == true)
        #expect(sent(say(&session, "join:no such room!")).first?.hasPrefix("error:") == true)
    }

    @Test func messagesBecomeSingleLines() {
        func line(_ kind: MessageKind, _ user: String, _ text: String) -> String {
            String(decoding: LineFormat.line(for: Message(id: 1, room: "lobby", user: user, text: text, kind: kind, ts: 0)), as: UTF8.self)
        }
        #expect(line(.message, "luke", "two\nlines\r\nhere") == "luke:two lines here\n")
        #expect(line(.join, "luke", "") == "luke has joined\n")
        #expect(line(.leave, "luke", "") == "luke has left\n")
        #expect(line(.system, "system", "maintenance") == "system:maintenance\n")
    }

    @Test func pingIsAnsweredPongWithTheSameTextBeforeOrAfterIam() {
        var session = LineSession(access: AccessControl(verifier: nil))
        #expect(sent(say(&session, "ping:")) == ["pong:\n"])
        #expect(sent(say(&session, "ping:42 abc")) == ["pong:42 abc\n"])
        #expect(say(&session, "iam:luke") == [.enter(user: "luke", room: "lobby")])
        #expect(sent(say(&session, "ping:still here\r")) == ["pong:still here \n"])
    }
}
