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
}
