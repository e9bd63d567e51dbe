import Testing
@testable import SwitchboardCore

@Suite("Names, text and parameters")
struct ValidationTests {
    let limits = MessageLimits()

    @Test(arguments: ["lobby", "a", "Room_1.x-y", String(repeating: "r", count: 64)])
    func validRooms(_ room: String) throws {
        #expect(try limits.validRoom(room) == room)
    }

    @Test(arguments: ["", "has space", "ümlaut", "a/b", "a\nb", String(repeating: "r", count: 65)])
    func invalidRooms(_ room: String) {
        #expect(throws: SwitchboardError.self) { try limits.validRoom(room) }
    }

    @Test func userNamesAreTrimmedAndCountedInCodePoints() throws {
        #expect(try limits.validUser("  luke\t") == "luke")
        #expect(try limits.validUser(String(repeating: "é", count: 32)).unicodeScalars.count == 32)
        #expect(throws: SwitchboardError.self) { try limits.validUser(String(repeating: "é", count: 33)) }
        #expect(try limits.validUser("Léia 🚀") == "Léia 🚀")
    }

    @Test(arguments: ["", "   ", "a:b", "a\nb", "a\rb", "a\u{0}b", "a\u{7}b", "a\u{2028}b", "system", "SYSTEM"])
    func invalidUsers(_ user: String) {
        #expect(throws: SwitchboardError.self) { try limits.validUser(user) }
    }

    @Test func textIsTrimmedOfTrailingLineEndsOnly() throws {
        #expect(try limits.validText("hi\r\n\n") == "hi")
        #expect(try limits.validText("  two\nlines  ") == "  two\nlines  ")
        #expect(try limits.validText(String(repeating: "x", count: 4096)).utf8.count == 4096)
        #expect(throws: SwitchboardError.self) { try limits.validText("\r\n") }
        #expect(throws: SwitchboardError.self) { try limits.validText(String(repeating: "x", count: 4097)) }
        #expect(throws: SwitchboardError.self) { try limits.validText("a\u{0}") }
        do {
            _ = try limits.validText(String(repeating: "é", count: 2049))
            Issue.record("4098 bytes accepted")
        } catch {
            #expect(error.code == "too_long")
        }
    }

    @Test func pollParametersAreCheckedNotClamped() throws {
        #expect(try PollParameters(since: "5", limit: "10", wait: "25") == PollParameters(since: 5, limit: 10, wait: 25))
        #expect(try PollParameters(since: nil, limit: nil, wait: nil) == PollParameters(since: nil, limit: 100, wait: nil))
        for (since, limit, wait) in [("-1", nil, nil), ("x", nil, nil), ("", nil, nil), (nil, "0", nil), (nil, "1001", nil),
                                      (nil, nil, "61"), (nil, nil, "-1"), ("1e3", nil, nil), ("+5", nil, nil)] as [(String?, String?, String?)] {
            #expect(throws: SwitchboardError.self) { try PollParameters(since: since, limit: limit, wait: wait) }
        }
    }

    @Test func formBodiesDecodeLikeBrowsersAndCurlSendThem() throws {
        let fields = try FormURLEncoded.decode(Array("user=luke+s&text=a%26b%3Dc%0A%F0%9F%9A%80&flag&=x".utf8))
        #expect(fields.map(\.name) == ["user", "text", "flag", ""])
        #expect(fields.map(\.value) == ["luke s", "a&b=c\n🚀", "", "x"])
        #expect(throws: SwitchboardError.malformedForm("'%' must be followed by two hex digits")) {
            try FormURLEncoded.decode(Array("a=%4".utf8))
        }
        #expect(throws: SwitchboardError.invalidUTF8) { try FormURLEncoded.decode(Array("a=%C3".utf8)) }
    }

    @Test func publishBodiesAreReadByContentType() throws {
        let json = try PublishRequest.draft(room: "lobby", contentType: "application/json; charset=utf-8",
                                            body: Array(#"{"user":"luke","text":"hi","extra":1}"#.utf8), limits: limits)
        #expect(json == MessageDraft(room: "lobby", user: "luke", text: "hi", kind: .message))
        let sniffedJSON = try PublishRequest.draft(room: "lobby", contentType: nil, body: Array(#" {"user":"a","text":"b"}"#.utf8), limits: limits)
        #expect(sniffedJSON.user == "a")
        let sniffedForm = try PublishRequest.draft(room: "lobby", contentType: nil, body: Array("user=a&text=b".utf8), limits: limits)
        #expect(sniffedForm.text == "b")
        #expect(throws: SwitchboardError.unsupportedMediaType) {
            try PublishRequest.draft(room: "lobby", contentType: "multipart/form-data", body: [], limits: limits)
        }
    }
}
