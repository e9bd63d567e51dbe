import Foundation
import Testing
@testable import SwitchboardCore

/// The publish body's JSON reader, against Foundation's `JSONSerialization`
/// as the reference: the same bodies accepted, the same fields read.
@Suite("Client message JSON reader")
struct ClientMessageJSONTests {
    /// What Foundation makes of `text` under the publish rules (nil: refused).
    /// Two deliberate differences: Foundation accepts a trailing comma
    /// (`{"a":1,}`), which RFC 8259 does not allow, and a member read given
    /// twice (`{"text":"a","text":"b"}`, I-JSON: RFC 7493), which this reader
    /// refuses. (No string in these tests holds a comma or a bracket.)
    func reference(_ text: String) -> (user: String?, text: String?)?? {
        if text.range(of: #",\s*[}\]]"#, options: .regularExpression) != nil { return .some(nil) }
        if readMembersGivenTwice(text) { return .some(nil) }
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { return .some(nil) }
        func field(_ name: String) -> String?? {
            switch object[name] {
            case nil, is NSNull: return .some(nil)
            case let value as String: return .some(value)
            default: return nil
            }
        }
        guard let user = field("user"), let text = field("text") else { return .some(nil) }
        return .some((user, text))
    }

    /// Whether the outer object names `user` or `text` twice: its members'
    /// names, found by depth outside strings.
    func readMembersGivenTwice(_ text: String) -> Bool {
        var depth = 0, names: [String] = [], rest = Substring(text)
        while let character = rest.popFirst() {
            switch character {
            case "{", "[": depth += 1
            case "}", "]": depth -= 1
            case "\"":
                var string = ""
                while let next = rest.popFirst(), next != "\"" {
                    string.append(next)
                    if next == "\\", let escaped = rest.popFirst() { string.append(escaped) }
                }
                if depth == 1, rest.drop(while: \.isWhitespace).first == ":" { names.append(string) }
            default: break
            }
        }
        return ["user", "text"].contains { name in names.filter { $0 == name }.count > 1 }
    }

    func ours(_ text: String) -> (user: String?, text: String?)? {
        (try? ClientMessageJSON.publish(of: Array(text.utf8))).map { ($0.user, $0.text) }
    }

    static let corpus = [
        #"{"user":"luke","text":"hi"}"#,
        #"  {"text" : "hi" , "user":"luke"}  "#,
        #"{}"#, #"{"user":null,"text":null}"#,
        #"{"user":"a","text":"tab\tnew\nline \"q\" \\ \/ \u00e9 \ud83d\ude00 \u0000"}"#,
        #"{"user":"a","text":"x","extra":{"n":[1,-2.5e+3,true,false,null,{"deep":[[]]}],"s":"\u1234"}}"#,
        #"{"user":"a","text":"x","n":0,"m":-0.0,"e":1E9}"#, #"{"user":"a","text":"x","n":{"text":1},"m":[{"user":2}]}"#,
        // refused by both
        #"{"user":1,"text":"x"}"#, #"{"user":"a","text":["x"]}"#, #"["user"]"#, #""just a string""#,
        #"{"user":"a","text":"x",}"#, #"{"user":"a" "text":"x"}"#, #"{"user":"a","text":"x"} trailing"#,
        #"{"user":"a","text":"x","n":01}"#, #"{"user":"a","text":"x","n":1.}"#, #"{"user":"a","text":"x","n":.5}"#,
        #"{"user":"a","text":"\x"}"#, #"{"user":"a","text":"\u12"}"#, #"{"user":"a","text":"x","b":tru}"#,
        #"{"user":"a","text":"unterminated}"#, #"{user:"a"}"#, #"{"user":"a","text":"x""#, "", " ",
        "{\"user\":\"a\",\"text\":\"raw\u{1}control\"}", #"{"user":"a","text":"x","text":"y"}"#, #"{"user":"a","user":"b","text":"x"}"#, #"{"user":"a","text":"x","n":-}"#, #"{"user":"a","text":"x","n":1e}"#,
    ]

    @Test(arguments: corpus)
    func agreesWithFoundation(_ body: String) {
        let expected = reference(body)!
        let got = ours(body)
        #expect((got == nil) == (expected == nil), "accepted by one and not the other: \(body)")
        if let got, let expected {
            #expect(got.user == expected.user && got.text == expected.text, "\(body)")
        }
    }

    @Test func loneSurrogatesAndDeepNestingAreRefused() {
        #expect(ours(#"{"user":"a","text":"\ud83d"}"#) == nil)
        #expect(ours(#"{"user":"a","text":"\ude00x"}"#) == nil)
        let deep = #"{"user":"a","text":"x","n":"# + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}"
        #expect(ours(deep) == nil, "nesting is bounded")
        let fine = #"{"user":"a","text":"x","n":"# + String(repeating: "[", count: 30) + String(repeating: "]", count: 30) + "}"
        #expect(ours(fine)?.text == "x")
    }

    /// A member the reader reads, given twice, is refused on every way in
    /// (a publish body, a WebSocket frame), as inside a nested object; one
    /// it skips may be given twice.
    /// A publish's names are compared where they lie; one written with an
    /// escape is the same name, read the long way.
    @Test func aNameWithAnEscapeIsTheSameName() throws {
        let escaped = try ClientMessageJSON.publish(of: Array(#"{"\u0074ext":"hi","us\u0065r":"luke","media\/x":1}"#.utf8))
        #expect(escaped.text == "hi" && escaped.user == "luke")
        #expect(throws: SwitchboardError.self) { try ClientMessageJSON.publish(of: Array(#"{"text":"a","\u0074ext":"b"}"#.utf8)) }
        // Names that begin or end like one of them, or differ in case, are other members.
        let others = try ClientMessageJSON.publish(of: Array(#"{"tex":1,"texts":2,"Text":3,"":4,"text":"t"}"#.utf8))
        #expect(others.text == "t" && others.user == nil)
        #expect(throws: SwitchboardError.self) { try ClientMessageJSON.publish(of: Array(#"{"text"#.utf8)) }
        #expect(throws: SwitchboardError.self) { try ClientMessageJSON.publish(of: Array(#"{"#.utf8)) }
        #expect(throws: SwitchboardError.self) { try ClientMessageJSON.publish(of: Array(#"{text:"t"}"#.utf8)) }
    }

    @Test func aMemberReadTwiceIsRefused() throws {
        #expect(throws: SwitchboardError.malformedJSON("'text' is given twice")) {
            try ClientMessageJSON.publish(of: Array(#"{"user":"a","text":"first","text":"second"}"#.utf8))
        }
        #expect(throws: SwitchboardError.malformedJSON("'user' is given twice")) {
            try ClientMessageJSON.publish(of: Array(#"{"user":"a","text":"x","user":null}"#.utf8))
        }
        #expect(throws: ClientMessageJSON.Refusal(reason: "'ref' is given twice")) {
            try ClientMessageJSON.members(of: Array(#"{"text":"hi","ref":1,"ref":2}"#.utf8), named: ["text", "ref"])
        }
        #expect(ours(#"{"user":"a","text":"x","other":1,"other":2}"#)?.text == "x")
        #expect(try ClientMessageJSON.members(of: Array(#"{"text":"hi","x":1,"x":2}"#.utf8), named: ["text"]) == ["text": .string("hi")])
    }

    @Test func aFieldOfTheWrongTypeIsNamed() {
        #expect(throws: SwitchboardError.malformedJSON("'text' must be a string")) { try ClientMessageJSON.publish(of: Array(#"{"text":5}"#.utf8)) }
    }

    /// A byte order mark before the object is skipped (RFC 8259 8.1), as
    /// Foundation does for a conversation's body; what is no object is told
    /// so, a publish with its example, anything else without one about texts.
    @Test func aByteOrderMarkIsSkippedAndNoObjectIsToldSo() throws {
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        #expect(try ClientMessageJSON.publish(of: mark + Array(#"{"user":"a","text":"hi"}"#.utf8)).text == "hi")
        #expect(try ClientMessageJSON.members(of: mark + Array(#" {"user":"a"}"#.utf8), named: ["user"]) == ["user": .string("a")])
        #expect(throws: SwitchboardError.malformedJSON(#"expected an object like {"user":"luke","text":"hi"}"#)) {
            try ClientMessageJSON.publish(of: Array("[1]".utf8))
        }
        #expect(throws: ClientMessageJSON.Refusal(reason: "expected an object like {...}")) {
            try ClientMessageJSON.members(of: Array("nope".utf8), named: ["user", "password"])
        }
        #expect(throws: ClientMessageJSON.Refusal.self) { try ClientMessageJSON.members(of: mark + mark + Array("{}".utf8), named: []) }
    }

    /// Random bodies built from JSON's pieces, some broken on purpose.
    @Test func randomBodiesAgreeWithFoundation() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["{", "}", "[", "]", ",", ":", "\"user\"", "\"text\"", "\"x\"", "\"\\u00e9\"", "\"\\n\"", "1", "-2.5e3",
                      "true", "null", " ", "\"k\"", "0", "{\"a\":1}"]
        for _ in 0..<3000 {
            var body = "{\"user\":\"u\",\"text\":\"t\""
            for _ in 0..<Int.random(in: 0...8, using: &generator) { body += pieces.randomElement(using: &generator)! }
            if Bool.random(using: &generator) { body += "}" }
            let expected = reference(body)!
            let got = ours(body)
            #expect((got == nil) == (expected == nil), "accepted by one and not the other: \(body)")
            if (got == nil) != (expected == nil) { return }
        }
    }

    @Test func aWebSocketsMembersComeAsScalarsWithNumbersAsWritten() throws {
        let found = try ClientMessageJSON.members(of: Array(#"{"text":"hi","ref":1.50,"ping":[1],"room":null,"x":true}"#.utf8),
                                                  named: ["text", "ref", "ping", "room"])
        #expect(found == ["text": .string("hi"), "ref": .number("1.50"), "ping": .array([.number("1")]), "room": .null])
        #expect(String(decoding: JSONValue.string("a\"b").json, as: UTF8.self) == #""a\"b""#)
        #expect(String(decoding: JSONValue.number("1.50").json, as: UTF8.self) == "1.50")
    }

    /// The new message fields' shapes (attachments, a location, a push
    /// subscription's keys): one level of array or object of scalars, read
    /// by the same strict reader; anything deeper is noted, not read.
    @Test func listsAndObjectsOfScalarsAreReadOneLevelDeep() throws {
        let body = #"{"text":"look","media":["m1","m2"],"location":{"lat":48.85,"lon":2.29,"label":"x"},"deep":[[1],{"a":{}}]}"#
        let found = try ClientMessageJSON.members(of: Array(body.utf8), named: ["media", "location", "deep"])
        #expect(try found["media"]?.stringsOrNull("media") == ["m1", "m2"])
        let location = try #require(try found["location"]?.objectOrNull("location"))
        #expect(location["lat"]?.doubleValue == 48.85 && location["lon"]?.doubleValue == 2.29 && location["label"] == .string("x"))
        #expect(found["deep"] == .array([.composite, .composite]))
        #expect(throws: ClientMessageJSON.Refusal.self) { try JSONValue.array([.number("1")]).stringsOrNull("media") }
        #expect(throws: ClientMessageJSON.Refusal.self) {
            try ClientMessageJSON.members(of: Array(#"{"location":{"lat":1,"lat":2}}"#.utf8), named: ["location"])
        }
        for broken in [#"{"media":["a",]}"#, #"{"media":["a"}"#, #"{"location":{"lat":}}"#, #"{"media":[}"#] {
            #expect(throws: ClientMessageJSON.Refusal.self, "\(broken)") {
                try ClientMessageJSON.members(of: Array(broken.utf8), named: ["media", "location"])
            }
        }
    }
}
