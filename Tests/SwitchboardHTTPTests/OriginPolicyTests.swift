import MicroHTTPD
import Testing
@testable import SwitchboardHTTP

/// Which Host and Origin are the server's own (DNS rebinding: a name made
/// to point at this machine is not).
@Suite("Origin policy")
struct OriginPolicyTests {
    func request(host: String?, origin: String?) -> HTTPRequest {
        var headers: [String: String] = [:]
        headers["Host"] = host
        headers["Origin"] = origin
        return HTTPRequest(method: "GET", path: "/api/ws", headers: headers)
    }

    @Test func aRebindingPageIsNotSameOrigin() {
        let wildcard = OriginPolicy(allowed: [], boundHost: "0.0.0.0")
        #expect(!wildcard.refusesHost(request(host: "evil.example:8080", origin: nil)))
        #expect(!wildcard.permits(request(host: "evil.example:8080", origin: "http://evil.example:8080")))
        #expect(wildcard.permits(request(host: "127.0.0.1:8080", origin: "http://127.0.0.1:8080")))
        #expect(wildcard.permits(request(host: "[::1]:8080", origin: "http://[::1]:8080")))
        #expect(wildcard.permits(request(host: "localhost:8080", origin: "http://localhost:8080")))
        #expect(wildcard.permits(request(host: "evil.example", origin: nil)))  // curl: no Origin
    }

    @Test func aServerThatKnowsItsNamesRefusesOthers() {
        let bound = OriginPolicy(allowed: [], boundHost: "127.0.0.1")
        #expect(bound.refusesHost(request(host: "evil.example:8080", origin: nil)))
        #expect(!bound.refusesHost(request(host: "127.0.0.1:8080", origin: nil)))
        #expect(!bound.refusesHost(request(host: nil, origin: nil)))
        let named = OriginPolicy(allowed: ["https://app.example.com"], publicURL: "https://chat.example.com/", boundHost: "0.0.0.0")
        #expect(!named.refusesHost(request(host: "chat.example.com", origin: nil)))
        #expect(!named.refusesHost(request(host: "CHAT.example.com.", origin: nil)))
        #expect(named.refusesHost(request(host: "chat.example.com.evil.example", origin: nil)))
        #expect(named.permits(request(host: "chat.example.com", origin: "https://chat.example.com")))
        #expect(named.permits(request(host: "chat.example.com", origin: "https://app.example.com")))
        #expect(!named.permits(request(host: "chat.example.com", origin: "https://evil.example")))
    }

    @Test func hostNamesAreReadWithoutPortOrUserInfo() {
        #expect(OriginPolicy.hostName(ofURL: "https://chat.example.com:8443/x?y") == "chat.example.com")
        #expect(OriginPolicy.hostName(ofAuthority: "[::1]:80") == "[::1]")
        #expect(OriginPolicy.hostName(ofAuthority: "user@evil") == nil)
        #expect(OriginPolicy.isIPLiteral("10.0.0.1") && OriginPolicy.isIPLiteral("[::1]") && !OriginPolicy.isIPLiteral("1.example"))
    }

    /// What `--allowed-origin` takes: an origin as a browser sends it.
    /// `https://app.example/path` was taken, and matched no request.
    @Test func anOriginIsASchemeAHostAndAPortOnly() {
        for origin in ["https://app.example", "http://app.example:8080", "https://app.example/", "http://127.0.0.1:9000",
                       "http://[::1]:8080", "HTTPS://App.Example"] {
            #expect(OriginPolicy.isOrigin(origin), "\(origin)")
        }
        for text in ["app.example", "ftp://app.example", "https://", "https://app.example/path", "https://app.example?x",
                     "https://app.example#x", "https://user@app.example", "https://app.example:", "https://app.example:80x",
                     "https://app.example:1234567", "https://app example", "https://[::1"] {
            #expect(!OriginPolicy.isOrigin(text), "\(text)")
        }
    }

    @Test(arguments: [("127.0.0.1", true), ("127.0.0.1:8080", true), ("10.1.2.3:1", true), ("1.2.3", false),
                      ("1.2.3.4.5", false), ("256.1.1.1", false), ("1.2.3.4:", false), ("1.example", false),
                      ("1.2.3.4:80x", false), ("", false), ("1..2.3", false), ("1.2.3.4:123456", false),
                      ("１.2.3.4", false), ("1.2.3.4\u{0}", false)])
    func ipv4AuthoritiesAreReadInPlace(host: String, expected: Bool) {
        #expect(OriginPolicy.isIPv4Authority(host) == expected)
    }
}
