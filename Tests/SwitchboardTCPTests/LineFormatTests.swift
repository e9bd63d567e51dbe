import Testing
import SwitchboardCore
@testable import SwitchboardTCP

/// What someone reading with `nc` sees: a text cannot make a line of its own
/// or move the cursor over what the server wrote.
@Suite("Lines a text cannot forge")
struct LineFormatTests {
    func line(_ text: String, kind: MessageKind = .message) -> String {
        let message = Message(id: 1, room: "lobby", user: "mallory", text: text, kind: kind, ts: 0)
        return String(decoding: LineFormat.line(for: message), as: UTF8.self)
    }

    @Test func lineBreaksAreSpaces() {
        #expect(line("one\ntwo\r\nthree\rfour") == "mallory:one two three four\n")
        #expect(line("a\n\nb") == "mallory:a  b\n")
    }

    @Test func controlCharactersCannotRewriteTheScreen() {
        // Backspaces over "mallory:", a carriage return, an escape sequence that
        // clears the line: each would show "leia:" to a terminal.
        #expect(line(String(repeating: "\u{8}", count: 8) + "leia:hi") == "mallory:        leia:hi\n")
        #expect(line("\u{1B}[2K\u{1B}[1Gleia:hi") == "mallory: [2K [1Gleia:hi\n")
        #expect(line("\u{1B}]0;owned\u{7}") == "mallory: ]0;owned \n", "a terminal's title")
        #expect(line("del\u{7F} c1\u{9B}31m nul\u{0}") == "mallory:del  c1 31m nul \n")
        #expect(line("bye\u{1B}", kind: .edit) == "mallory edited:bye \n")
        #expect(line("\u{1B}[31m", kind: .system) == "system: [31m\n")
    }

    @Test func whatIsNoControlIsKept() {
        #expect(line("tab\tstays, £ and ¿ and 𝄞 too") == "mallory:tab\tstays, £ and ¿ and 𝄞 too\n")
        #expect(LineFormat.error("bad\u{1B}[2Jline") == Array("error:bad [2Jline\n".utf8))
        #expect(LineFormat.pong("a\u{8}b") == Array("pong:a b\n".utf8))
    }
}
