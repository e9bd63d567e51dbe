import Foundation
import Testing
@testable import SwitchboardWebPush

/// The SSRF rules: https to public addresses only, unless the operator admitted the host.
@Suite struct PushEndpointTests {
    @Test(arguments: [
        "https://fcm.googleapis.com/fcm/send/abc",
        "https://updates.push.services.mozilla.com/wpush/v2/gAAA",
        "https://8.8.8.8/push",
        "https://[2001:4860:4860::8888]/push",
        "https://fcm.googleapis.com:443/fcm/send/abc",
        "https://web.push.apple.com/QGuQy",
        "https://wns2-by3p.notify.windows.com/w/?token=AQE",
        "https://b\u{FC}cher.example/push",   // Foundation gives the name as punycode
    ])
    func publicHTTPSIsTaken(url: String) throws {
        _ = try PushEndpoint(url, allowedHosts: [])
    }

    @Test(arguments: [
        ("http://push.example.com/x", PushEndpoint.Refusal.notHTTPS),
        ("https://127.0.0.1/x", .notPublic("127.0.0.1")),
        ("https://10.1.2.3/x", .notPublic("10.1.2.3")),
        ("https://169.254.169.254/latest/meta-data", .notPublic("169.254.169.254")),
        ("https://[::1]/x", .notPublic("::1")),
        ("https://[::ffff:192.168.1.1]/x", .notPublic("::ffff:192.168.1.1")),
        ("https://[fd00::1]/x", .notPublic("fd00::1")),
        ("https://localhost/x", .notPublic("localhost")),
        ("https://printer.local/x", .notPublic("printer.local")),
        // Every form getaddrinfo reads as an IPv4 address (inet_aton), and a name's final dot.
        ("https://127.1/x", .notPublic("127.1")),
        ("https://0x7f000001/x", .notPublic("0x7f000001")),
        ("https://2130706433/x", .notPublic("2130706433")),
        ("https://0177.0.0.1/x", .notPublic("0177.0.0.1")),
        ("https://0/x", .notPublic("0")),
        ("https://localhost./x", .notPublic("localhost.")),
        ("https://printer.local./x", .notPublic("printer.local.")),
        // A zone scopes an address to this machine's link; the URL's host comes percent-decoded.
        ("https://[::1%25lo]/x", .notPublic("::1%lo")),
        ("https://[fe80::1%25eth0]/x", .notPublic("fe80::1%eth0")),
        ("https://a.b%00.c/x", .notAHostName),
        ("https://push%20service.example.com/x", .notAHostName),
        ("https://a..b/x", .notAHostName),
        ("https://push.example.com:22/x", .notPort443),
        ("https://8.8.8.8:8443/x", .notPort443),
        ("https://user:pw@push.example.com/x", .notAURL),
        ("ftp://push.example.com/x", .notAURL),
        ("/relative", .notAURL),
    ])
    func privateOrPlainIsRefused(url: String, refusal: PushEndpoint.Refusal) {
        #expect(throws: refusal) { try PushEndpoint(url, allowedHosts: []) }
    }

    @Test func anAdmittedHostMayBeLoopbackOverHTTP() throws {
        let endpoint = try PushEndpoint("http://127.0.0.1:8125/push/1", allowedHosts: ["127.0.0.1"])
        #expect(endpoint.origin == "http://127.0.0.1:8125")
        #expect(endpoint.admitted)
    }

    @Test func aPublicAddressInAnotherFormIsALiteral() throws {
        let endpoint = try PushEndpoint("https://134744072/push", allowedHosts: [])   // 8.8.8.8
        #expect(!endpoint.needsResolution)
    }

    @Test func theURLsSpellingIsKeptForTheClient() throws {
        let endpoint = try PushEndpoint("https://Push.Example.com/a", allowedHosts: [])
        #expect(endpoint.host == "push.example.com")
        #expect(endpoint.urlHost == "Push.Example.com")
        #expect(endpoint.needsResolution)
        #expect(try PushEndpoint("https://[2001:4860::1]/a", allowedHosts: []).urlHost == "2001:4860::1")
    }

    @Test func aNamesAddressesAreKeptOnlyWhenAllArePublic() {
        #expect(HostAddresses.publicAddresses(of: [[8, 8, 8, 8], [0x20, 0x01, 0x48, 0x60] + [UInt8](repeating: 0, count: 11) + [0x88]])
                == ["8.8.8.8", "2001:4860::88"])
        #expect(HostAddresses.publicAddresses(of: [[8, 8, 8, 8], [127, 0, 0, 1]]) == nil)
        #expect(HostAddresses.publicAddresses(of: []) == nil)
    }

    @Test func theOriginIsTheAudience() throws {
        #expect(try PushEndpoint("https://Push.Example.com/a/b?c", allowedHosts: []).origin == "https://push.example.com")
        #expect(try PushEndpoint("https://Push.Example.com:443/a/b?c", allowedHosts: []).origin == "https://push.example.com")
        #expect(try PushEndpoint("https://push.test:8443/a", allowedHosts: ["push.test"]).origin == "https://push.test:8443")
        #expect(try PushEndpoint("http://push.test:80/a", allowedHosts: ["push.test"]).origin == "http://push.test")
        #expect(try PushEndpoint("https://[2001:4860::1]/a", allowedHosts: []).origin == "https://[2001:4860::1]")
    }

    @Test func addresses() {
        #expect(PublicAddress.isPublic(ipv4: [1, 1, 1, 1]))
        #expect(!PublicAddress.isPublic(ipv4: [100, 100, 0, 1]))
        #expect(!PublicAddress.isPublic(ipv4: [172, 20, 0, 1]))
        #expect(PublicAddress.isPublic(ipv4: [172, 32, 0, 1]))
        #expect(!PublicAddress.isPublic(ipv4: [224, 0, 0, 1]))
        #expect(!PublicAddress.isPublic(ipv4: [255, 255, 255, 255]))
        #expect(!PublicAddress.isPublic(ipv6: [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0, 127, 0, 0, 1]))
        #expect(!PublicAddress.isPublic(ipv6: [0xfe, 0x80] + [UInt8](repeating: 0, count: 13) + [1]))
    }
}

/// base64url by hand, against Foundation's base64 for every length up to 40.
@Suite struct Base64URLTests {
    @Test func roundTripsAndMatchesFoundation() throws {
        for length in 0...40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let expected = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(bytes) == expected)
            #expect(Base64URL.decode(expected) == bytes)
        }
        #expect(Base64URL.decode("ab+c") == nil)
        #expect(Base64URL.decode("abcde") == nil)
        #expect(Base64URL.decode("AB") == nil)   // leftover bits not zero
        #expect(Base64URL.decode("AA==") == [0])
    }
}
