#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An IPv4 address as `inet_ntop` writes it (`192.0.2.1`: each byte in
/// decimal, no leading zeros), without its `sprintf`: glibc's `inet_ntop`
/// formats an IPv4 address with `sprintf("%u.%u.%u.%u")`, 1,700 of a short
/// poll's 24,300 instructions (callgrind), and every short poll names its
/// client's address (as do a publish under a rate, a sign-in, an upgrade).
enum IPv4Text {
    /// The dotted decimal text of `address` (network byte order, as in a `sockaddr_in`).
    static func dotted(_ address: in_addr) -> String {
        let value = UInt32(bigEndian: address.s_addr)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 15) { text in
            var count = 0
            for shift in stride(from: UInt32(24), through: 0, by: -8) {
                if shift != 24 { text[count] = UInt8(ascii: "."); count += 1 }
                let byte = UInt8(truncatingIfNeeded: value >> shift)
                if byte >= 100 { text[count] = UInt8(ascii: "0") + byte / 100; count += 1 }
                if byte >= 10 { text[count] = UInt8(ascii: "0") + byte / 10 % 10; count += 1 }
                text[count] = UInt8(ascii: "0") + byte % 10
                count += 1
            }
            return String(decoding: UnsafeBufferPointer(rebasing: text[..<count]), as: UTF8.self)
        }
    }
}
