import Testing
@testable import MicroHTTPD

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// ``IPv4Text`` writes what glibc's `inet_ntop` writes, for the addresses
/// that matter (every byte's value in each position, the edges, loopback)
/// and for random ones.
@Suite("An IPv4 address's text")
struct IPv4TextTests {
    private static func libc(_ address: in_addr) -> String {
        var ip = address
        var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        let written = inet_ntop(AF_INET, &ip, &text, socklen_t(text.count))
        #expect(written != nil)
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `a.b.c.d` as a `sockaddr_in` holds it: network byte order.
    private static func address(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> in_addr {
        in_addr(s_addr: (UInt32(a) << 24 | UInt32(b) << 16 | UInt32(c) << 8 | UInt32(d)).bigEndian)
    }

    @Test func writesWhatInetNtopWrites() {
        #expect(IPv4Text.dotted(Self.address(127, 0, 0, 1)) == "127.0.0.1")
        #expect(IPv4Text.dotted(Self.address(0, 0, 0, 0)) == "0.0.0.0")
        #expect(IPv4Text.dotted(Self.address(255, 255, 255, 255)) == "255.255.255.255")
        #expect(IPv4Text.dotted(Self.address(192, 0, 2, 10)) == "192.0.2.10")
        for byte in UInt8.min...UInt8.max {
            for address in [Self.address(byte, 0, 9, 10), Self.address(1, byte, 99, 100), Self.address(10, 200, byte, 7),
                            Self.address(172, 16, 5, byte)] {
                #expect(IPv4Text.dotted(address) == Self.libc(address))
            }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<10_000 {
            let address = in_addr(s_addr: UInt32.random(in: .min ... .max, using: &generator))
            let (ours, theirs) = (IPv4Text.dotted(address), Self.libc(address))
            if ours != theirs { Issue.record("\(ours) where inet_ntop wrote \(theirs)"); return }
        }
    }
}
