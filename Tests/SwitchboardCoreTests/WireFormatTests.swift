import Foundation
import Synchronization
import Testing
@testable import SwitchboardCore

@Suite("Wire formats")
struct WireFormatTests {
    let message = Message(id: 42, room: "lobby", user: "luke", text: "hi \"there\"\n/x", kind: .message, ts: 1_763_800_000_123)

    @Test func messageJSONHasTheDocumentedFieldOrderAndRoundTrips() throws {
        let json = String(decoding: MessageJSON.encode(message), as: UTF8.self)
        #expect(json == #"{"id":42,"room":"lobby","user":"luke","text":"hi \"there\"\n/x","kind":"message","ts":1763800000123}"#)
        #expect(try JSONDecoder().decode(Message.self, from: Data(json.utf8)) == message)
    }

    @Test func stringsAreEscapedByteForByteAsFoundationEscapesThem() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        var corpus = ["", "plain", "quote \" and backslash \\", "/slash/", "tab\tnew\nline\rcr", "é 😀 \u{2028}\u{2029} \u{FEFF} \u{7F}",
                      String(decoding: (0..<0x20).map { UInt8($0) }, as: UTF8.self)]
        var generator = SystemRandomNumberGenerator()
        let alphabet: [Unicode.Scalar] = (0..<0x80).compactMap(Unicode.Scalar.init) + ["é", "ß", "😀", "\u{2028}", "\u{FFFD}", "中"]
        for _ in 0..<2_000 {
            let length = Int.random(in: 0...40, using: &generator)
            var scalars = String.UnicodeScalarView()
            for _ in 0..<length { scalars.append(alphabet.randomElement(using: &generator)!) }
            corpus.append(String(scalars))
        }
        for string in corpus {
            var ours: [UInt8] = []
            MessageJSON.appendString(string, to: &ours)
            #expect(ours == Array(try encoder.encode(string)), "\(string.debugDescription)")
        }
        // Arrays of them (the push queue's recipients), as the shared encoder writes them.
        for strings in [[], [""], ["luke"], ["luke", "leia", "han"], Array(corpus.prefix(40)), Array(corpus.suffix(7))] {
            #expect(MessageJSON.encode(strings: strings) == MessageJSON.encode(strings), "\(strings.debugDescription)")
        }
    }

    /// Each byte a string escapes, alone at every place in strings of 0 to
    /// 24 bytes of plain ASCII and of multi-byte UTF-8 (in and across the
    /// eight-byte words ``JSONStringScan`` reads), written as Foundation
    /// writes it and read back by the client reader as it was.
    @Test func everySpecialByteIsFoundAtEveryPlaceInAWord() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let specials: [UInt8] = Array(0..<0x20) + [UInt8(ascii: "\""), UInt8(ascii: "\\")]
        // Bytes next to the specials' values, which a wrong mask would take for them.
        let fillers: [[UInt8]] = [Array("abcdefghijklmnopqrstuvwx".utf8), Array(repeating: 0x21, count: 24),
                                  Array(repeating: 0x5D, count: 24), Array(repeating: 0x7F, count: 24),
                                  Array(String(repeating: "é", count: 12).utf8)]
        for filler in fillers {
            for length in 0...24 {
                var cases = [Array(filler.prefix(length))]
                for place in 0...length { for special in specials {
                    var bytes = Array(filler.prefix(length))
                    bytes.insert(special, at: place)
                    cases.append(bytes)
                } }
                for bytes in cases {
                    let string = String(decoding: bytes, as: UTF8.self)
                    var ours: [UInt8] = []
                    MessageJSON.appendString(string, to: &ours)
                    let expected = Array(try encoder.encode(string))
                    #expect(ours == expected, "\(string.debugDescription)")
                    let body = Array(#"{"user":"u","text":"#.utf8) + expected + [UInt8(ascii: "}")]
                    #expect(try ClientMessageJSON.publish(of: body).text == string, "\(string.debugDescription)")
                    // A raw control character inside a string is refused, wherever it is.
                    if let control = bytes.first(where: { $0 < 0x20 }) {
                        let raw = Array(#"{"user":"u","text":""#.utf8) + bytes + Array(#""}"#.utf8)
                        #expect(throws: SwitchboardError.self, "raw \(control) in \(string.debugDescription)") {
                            try ClientMessageJSON.publish(of: raw)
                        }
                    }
                }
            }
        }
    }

    @Test func outboxWritesFramesAcrossSmallBuffers() {
        var outbox = FrameOutbox()
        outbox.append(Array("hello ".utf8))
        outbox.append(Array("world".utf8))
        var collected: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4)
        while !outbox.isEmpty {
            let count = buffer.withUnsafeMutableBytes { outbox.drain(into: $0) }
            #expect(count > 0 && count <= 4)
            collected += buffer[..<count]
        }
        #expect(String(decoding: collected, as: UTF8.self) == "hello world")
    }

    /// A message's frame is written from the message's own (built once for
    /// every outbox), in order with whole frames, across buffers of any size.
    @Test func outboxWritesMessagesFramesFromTheMessageInOrder() {
        enum Bracketed: MessageFrameFormat {
            static let built = Atomic<Int>(0)
            static func frame(for message: EncodedMessage) -> [UInt8] {
                built.add(1, ordering: .relaxed)
                return Array("[message \(message.id)]".utf8)
            }
        }
        let message = EncodedMessage(Message(id: 42, room: "lobby", user: "luke", text: "hi", kind: .message, ts: 1))
        for size in [1, 3, 64] {
            var outbox = FrameOutbox()
            outbox.append(Array("retry ".utf8))
            outbox.append(message, framedAs: Bracketed.self)
            outbox.append(Array(" then".utf8))
            outbox.append(message, framedAs: Bracketed.self)
            var collected: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: size)
            while !outbox.isEmpty {
                let count = buffer.withUnsafeMutableBytes { outbox.drain(into: $0) }
                #expect(count > 0 && count <= size)
                collected += buffer[..<count]
            }
            #expect(String(decoding: collected, as: UTF8.self) == "retry [message 42] then[message 42]", "buffers of \(size)")
        }
        #expect(Bracketed.built.load(ordering: .relaxed) == 1)
    }
}

