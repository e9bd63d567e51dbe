import Testing
import SwitchboardCore
import SwitchboardTesting
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
        // Dot segments are no room: no URL could name it.
        for dots in ["join:..", "join:."] {
            #expect(sent(say(&session, dots)).first?.contains("not '.' or '..'") == true, "\(dots)")
        }
        #expect(say(&session, "join:...") == [.move(user: "han", from: "lobby", to: "...")])
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

    // MARK: - identity (a table of tokens stands in for signatures: a pure unit test)

    static let leia = TokenClaims(user: "leia", expires: 4_000_000_000_000, revocationKey: "l")
    static let team = TokenClaims(user: "ahsoka", expires: 4_000_000_000_000, rooms: RoomGrant(["jedi-*"]), revocationKey: "a")

    func session(_ mode: AccessMode = .open, registered: [String] = []) -> LineSession {
        let access = AccessControl(mode: mode, verifier: StaticTokenVerifier(["leia-token": Self.leia, "team-token": Self.team]))
        access.load(accounts: registered, bans: [:], revoked: [:])
        return LineSession(access: access)
    }

    @Test func authSignsInAndJoinsAsTheTokensUserSoIamMayBeLeftOut() {
        var session = session()
        #expect(say(&session, "auth:leia-token") == [.authenticated(.user(Self.leia)), .send(Array("auth:leia\n".utf8)),
                                                     .enter(user: "leia", room: "lobby")])
        #expect(say(&session, "msg:hi") == [.publish(MessageDraft(room: "lobby", user: "leia", text: "hi", kind: .message))])
        #expect(say(&session, "iam:leia") == [])
        #expect(sent(say(&session, "iam:han")) == ["error:not_your_name\n"])
    }

    @Test func aBadTokenIsRefusedWithItsCodeAndTheConnectionGoesOn() {
        var session = session()
        #expect(sent(say(&session, "auth:forged")) == ["error:invalid_token\n"])
        #expect(sent(say(&session, "auth:")) == ["error:unauthorized\n"])
        #expect(say(&session, "iam:han") == [.enter(user: "han", room: "lobby")])
        // Joined as han: signing in as someone else needs a new connection.
        #expect(sent(say(&session, "auth:leia-token")).first?.hasPrefix("error:already joined as han") == true)
    }

    @Test func registeredNamesAreReservedAndRequiredModeRefusesGuests() {
        var open = session(registered: ["Luke"])
        #expect(sent(say(&open, "iam:luke")) == ["error:name_reserved\n"])
        #expect(say(&open, "iam:han") == [.enter(user: "han", room: "lobby")])
        var required = session(.required)
        #expect(sent(say(&required, "iam:han")) == ["error:unauthorized\n"])
        #expect(sent(say(&required, "who:")) == ["error:unauthorized\n"])
        #expect(say(&required, "auth:leia-token").count == 3)
    }

    @Test func aTokensRoomsLimitJoin() {
        var session = session()
        #expect(sent(say(&session, "auth:team-token")) == ["error:forbidden\n"], "it starts in the lobby, which it may not read")
        #expect(say(&session, "join:jedi-temple") == [])
        #expect(say(&session, "auth:team-token").count == 3)
        #expect(sent(say(&session, "join:lobby")) == ["error:forbidden\n"])
        #expect(say(&session, "join:jedi-council") == [.move(user: "ahsoka", from: "jedi-temple", to: "jedi-council")])
    }

    @Test func typingNeedsANameAndARoomTheClientMayRead() {
        var session = LineSession(access: AccessControl(verifier: nil))
        #expect(sent(say(&session, "typing:")) == ["error:send iam:NAME first\n"])
        _ = say(&session, "iam:luke")
        #expect(say(&session, "typing:") == [.typing(user: "luke", room: "lobby")])
        // A guest may not enter a conversation, nor say it types there.
        #expect(sent(say(&session, "join:c.7")) == ["error:unauthorized\n"])
    }

    @Test func losingTheConversationItIsInMovesItToTheLobby() {
        let access = AccessControl(verifier: nil)
        var session = LineSession(access: access)
        _ = say(&session, "iam:luke")
        _ = say(&session, "join:team")
        #expect(session.lostAccess(to: "other") == [])
        #expect(session.lostAccess(to: "team") == [.send(Array("system:you are no longer in team\n".utf8)),
                                                   .move(user: "luke", from: "team", to: "lobby")])
        #expect(session.room == "lobby")
    }
}
