import Testing
import SwitchboardCore
@testable import SwitchboardTCP

/// What the DogeChat app would display for what the server writes: it reads
/// 4,096 bytes at a time and shows each read as one bubble, split on `:`.
@Suite("What the app can show")
struct AppLineFormatTests {
    func message(_ text: String, user: String = "luke", kind: MessageKind = .message) -> EncodedMessage {
        EncodedMessage(Message(id: 1, room: "lobby", user: user, text: text, kind: kind, ts: 0))
    }

    @Test func oneMessageWithoutALineBreak() {
        #expect(message("such wow").frame(AppLineFormat.self) == Array("luke:such wow".utf8))
        #expect(message("", kind: .join).frame(AppLineFormat.self) == Array("luke has joined".utf8))
        #expect(message("1", kind: .delete).frame(AppLineFormat.self).isEmpty)
        #expect(AppLineFormat.fit(Array("error:send iam:NAME first\n".utf8)) == Array("error:send iam:NAME first".utf8))
    }

    @Test func attachmentsFollowTheTextAsKindAndURL() {
        let photo = MediaAttachment(id: String(repeating: "a", count: 32), type: "image/jpeg", size: 1, name: "p.jpg", hasThumbnail: true)
        let voice = MediaAttachment(id: String(repeating: "b", count: 32), type: "audio/ogg", size: 1, name: "v.ogg", hasThumbnail: false)
        let looked = Message(id: 1, room: "lobby", user: "luke", text: "look", kind: .message, ts: 0, media: [photo, voice])
        #expect(LineFormat.line(for: looked, mediaBase: "http://127.0.0.1:8080")
                == Array("luke:look [photo http://127.0.0.1:8080/api/media/\(photo.id)] [voice http://127.0.0.1:8080/api/media/\(voice.id)]\n".utf8))
        let silent = Message(id: 2, room: "lobby", user: "luke", text: "", kind: .message, ts: 0, media: [voice])
        #expect(LineFormat.line(for: silent, mediaBase: "http://h") == Array("luke:[voice http://h/api/media/\(voice.id)]\n".utf8))
    }

    @Test func actsAndRepliesAreTheLinesTheSpecGives() {
        func line(_ change: (inout Message) -> Void, kind: MessageKind = .message, text: String = "hi") -> String {
            var message = Message(id: 2, room: "lobby", user: "luke", text: text, kind: kind, ts: 0)
            change(&message)
            return String(decoding: LineFormat.line(for: message), as: UTF8.self)
        }
        #expect(line { ($0.replyTo, $0.replyToUser) = (1, "leia") } == "luke (reply to leia):hi\n")
        #expect(line({ $0.target = 1 }, kind: .edit, text: "hello") == "luke edited:hello\n")
        #expect(line({ $0.target = 1 }, kind: .delete, text: "") == "luke unsent a message\n")
        #expect(line({ ($0.target, $0.emoji, $0.on) = (1, "👍", true) }, kind: .reaction, text: "") == "luke reacted 👍\n")
        #expect(line({ ($0.target, $0.emoji, $0.on) = (1, "👍", false) }, kind: .reaction, text: "") == "", "taking back has no line")
        #expect(line({ $0.location = Location(lat: 51.5, lon: -0.12) }, text: "") == "luke shared a location geo:51.5,-0.12\n")
        #expect(line({ $0.location = Location(lat: 51.5, lon: -0.12) }, text: "here") == "luke:here [location geo:51.5,-0.12]\n")
        #expect(line({ _ in }, kind: .delete, text: "1") == "", "the admin's removal has no line")
    }

    @Test func aFullLengthTextFitsOneReadEndingInAnEllipsis() {
        let text = String(repeating: "a", count: 4090) + "€€"  // 4,096 bytes, ends in 3-byte characters
        let frame = message(text).frame(AppLineFormat.self)
        #expect(frame.count <= AppLineFormat.maxBytes)
        let shown = String(validating: frame, as: UTF8.self)
        #expect(shown != nil, "cut at a character boundary")
        #expect(shown?.hasPrefix("luke:aaaa") == true && shown?.hasSuffix("…") == true)
        // A text that fits is untouched.
        let short = String(repeating: "b", count: 4096 - "luke:".utf8.count)
        #expect(message(short).frame(AppLineFormat.self) == Array("luke:\(short)".utf8))
    }
}
