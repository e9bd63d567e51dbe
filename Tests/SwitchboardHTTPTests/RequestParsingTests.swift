import Testing
import SwitchboardCore
@testable import SwitchboardHTTP

@Suite("HTTP request parsing")
struct RequestParsingTests {
    let limits = MessageLimits()

    @Test func pollParametersAreCheckedNotClamped() throws {
        #expect(try PollParameters(since: "5", limit: "10", wait: "25") == PollParameters(since: 5, limit: 10, wait: 25))
        #expect(try PollParameters(since: nil, limit: nil, wait: nil) == PollParameters(since: nil, limit: 100, wait: nil))
        for (since, limit, wait) in [("-1", nil, nil), ("x", nil, nil), ("", nil, nil), (nil, "0", nil), (nil, "1001", nil),
                                      (nil, nil, "61"), (nil, nil, "-1"), ("1e3", nil, nil), ("+5", nil, nil)] as [(String?, String?, String?)] {
            #expect(throws: SwitchboardError.self) { try PollParameters(since: since, limit: limit, wait: wait) }
        }
    }

    /// The wss listener's request line (SwiftNIO's, not libmicrohttpd's):
    /// a path or query that is no UTF-8 once decoded is refused as the
    /// daemon refuses it, not blamed on a body it does not have.
    @Test func aRequestLineThatIsNoTextIsRefused() throws {
        let request = try RequestLine.request(method: "GET", uri: "/api/ws?rooms=l%C3%A9a&x", headers: [], clientAddress: nil)
        #expect(request.path == "/api/ws" && request.query("rooms") == "l\u{E9}a" && request.query("x") == "")
        for uri in ["/api/w%FFs", "/api/ws?rooms=%FF", "/api/ws?%C0%AF=1"] {
            #expect(throws: SwitchboardError.targetNotUTF8) { try RequestLine.request(method: "GET", uri: uri, headers: [], clientAddress: nil) }
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
        let json = try PublishRequest.fields(contentType: "application/json; charset=utf-8",
                                             body: Array(#"{"user":"luke","text":"hi","extra":1}"#.utf8))
        #expect(json.user == "luke" && json.text == "hi")
        let sniffedJSON = try PublishRequest.fields(contentType: nil, body: Array(#" {"user":"a","text":"b"}"#.utf8))
        #expect(sniffedJSON.user == "a")
        let sniffedForm = try PublishRequest.fields(contentType: nil, body: Array("user=a&text=b".utf8))
        #expect(sniffedForm.text == "b")
        #expect(throws: SwitchboardError.unsupportedMediaType) {
            try PublishRequest.fields(contentType: "multipart/form-data", body: [])
        }
    }

    @Test func theMediaTypeIsTheTrimmedLowerCasedPartBeforeAnySemicolon() {
        #expect(ContentType.essence(of: "application/json") == "application/json")
        #expect(ContentType.essence(of: " \tApplication/JSON \t; charset=utf-8") == "application/json")
        #expect(ContentType.essence(of: "application/x-www-form-urlencoded;charset=UTF-8") == "application/x-www-form-urlencoded")
        #expect(ContentType.essence(of: "") == "")
        #expect(ContentType.essence(of: "Application/JSON") == "application/json")
        #expect(ContentType.essence(of: "text/plain;charset=utf-8") == "text/plain")
        #expect(ContentType.essence(of: "image/png ") == "image/png")
        #expect(ContentType.essence(of: "  ; charset=utf-8") == "")
        #expect(ContentType.essence(of: ";") == "")
    }
}
