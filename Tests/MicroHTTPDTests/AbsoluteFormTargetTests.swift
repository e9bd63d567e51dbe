import Testing
@testable import MicroHTTPD

/// RFC 9112 3.2.2: the parts of a target in absolute form.
@Suite("Absolute-form targets")
struct AbsoluteFormTargetTests {
    @Test func anAbsoluteTargetGivesItsPathAndAuthority() {
        #expect(AbsoluteFormTarget("http://127.0.0.1:8080/api/rooms/lobby/messages")
                == AbsoluteFormTarget(path: "/api/rooms/lobby/messages", authority: "127.0.0.1:8080"))
        #expect(AbsoluteFormTarget("HTTPS://chat.example.com") == AbsoluteFormTarget(path: "/", authority: "chat.example.com"))
        #expect(AbsoluteFormTarget("http://[::1]:80/a/b") == AbsoluteFormTarget(path: "/a/b", authority: "[::1]:80"))
    }

    @Test func anythingElseIsNone() {
        for target in ["/", "/http://x/", "*", "", "ftp://x/", "http:/x", "httpx://x/", "x"] {
            #expect(AbsoluteFormTarget(target) == nil, "\(target)")
        }
    }
}
