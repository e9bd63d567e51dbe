import Testing
import SwitchboardCore
@testable import SwitchboardTCP

@Suite("Line framer")
struct LineFramerTests {
    func lines(_ outputs: [LineFramer.Output]) -> [String] {
        outputs.map {
            switch $0 {
            case .line(let bytes): return String(decoding: bytes, as: UTF8.self)
            case .tooLong: return "<too long>"
            }
        }
    }

    @Test func splitsOnLFAndCRLF() {
        var framer = LineFramer()
        #expect(lines(framer.feed(Array("iam:luke\nmsg:hi\r\nmsg:two\n".utf8))) == ["iam:luke", "msg:hi", "msg:two"])
        #expect(!framer.hasPending)
    }

    @Test func anyByteSplitGivesTheSameCommands() {
        let input = Array("iam:luke\r\nmsg:héllo\n\nmsg:x\r\n".utf8)
        for split in 0...input.count {
            var framer = LineFramer()
            let outputs = framer.feed(input[..<split]) + framer.feed(input[split...])
            #expect(lines(outputs) == ["iam:luke", "msg:héllo", "", "msg:x"], "split at \(split)")
        }
        var oneByOne = LineFramer()
        #expect(lines(input.flatMap { oneByOne.feed([$0]) }) == ["iam:luke", "msg:héllo", "", "msg:x"])
    }

    @Test func unterminatedCommandCompletesOnFlushLikeTheDogeChatApp() {
        var framer = LineFramer()
        #expect(framer.feed(Array("iam:luke".utf8)).isEmpty)
        #expect(framer.hasPending)
        #expect(lines(framer.flush()) == ["iam:luke"])
        #expect(framer.flush().isEmpty)
        // A pause shorter than the quiet period (no flush) never splits a command.
        #expect(framer.feed(Array("msg:hel".utf8)).isEmpty)
        #expect(framer.feed(Array("lo\r".utf8)).isEmpty)
        #expect(lines(framer.flush()) == ["msg:hello"])
    }

    @Test func overLongLineIsReportedOnceDiscardedAndReadingGoesOn() {
        var framer = LineFramer(maxLineBytes: 10)
        let exactly = String(repeating: "a", count: 10)
        #expect(lines(framer.feed(Array((exactly + "\r\n").utf8))) == [exactly])
        let outputs = framer.feed(Array((String(repeating: "b", count: 25) + "\nmsg:ok\n").utf8))
        #expect(lines(outputs) == ["<too long>", "msg:ok"])
        // A client without newlines: the quiet period ends the discarded line.
        var quiet = LineFramer(maxLineBytes: 10)
        #expect(lines(quiet.feed(Array(String(repeating: "c", count: 30).utf8))) == ["<too long>"])
        #expect(quiet.flush().isEmpty)
        #expect(lines(quiet.feed(Array("msg:next\n".utf8))) == ["msg:next"])
        // A line client: discarded up to its newline, whatever the pauses.
        #expect(lines(framer.feed(Array(String(repeating: "c", count: 30).utf8))) == ["<too long>"])
        #expect(framer.flush().isEmpty)
        #expect(lines(framer.feed(Array("cc\nmsg:next\n".utf8))) == ["msg:next"])
    }

    @Test func onceALineEndedWithANewlineQuietTimeNeverCutsACommand() {
        var framer = LineFramer()
        #expect(lines(framer.feed(Array("iam:luke\n".utf8))) == ["iam:luke"])
        #expect(framer.newlineTerminated)
        // `msg:hel`, a long pause, then `lo\n`: one command, as nc users type it.
        #expect(framer.feed(Array("msg:hel".utf8)).isEmpty)
        #expect(framer.hasPending && !framer.awaitsQuietTime)
        #expect(framer.flush().isEmpty)
        #expect(lines(framer.feed(Array("lo\n".utf8))) == ["msg:hello"])
        // A newline-less client keeps the quiet-time rule.
        var app = LineFramer()
        #expect(app.feed(Array("iam:luke".utf8)).isEmpty)
        #expect(app.awaitsQuietTime)
        #expect(lines(app.flush()) == ["iam:luke"])
    }
}
