/// Whether an IP address is one anyone on the internet could reach: not
/// loopback, private, link-local, shared, documentation, multicast or
/// reserved (RFC 6890's special-purpose registries). A push endpoint must
/// resolve to such addresses only, or a subscription would make the server
/// call into its own network (SSRF).
public enum PublicAddress {
    /// True for an IPv4 address given as its four bytes that is public.
    public static func isPublic(ipv4 a: [UInt8]) -> Bool {
        guard a.count == 4 else { return false }
        switch (a[0], a[1], a[2]) {
        case (0, _, _), (10, _, _), (127, _, _): return false
        case (100, 64...127, _): return false          // shared address space (CGNAT)
        case (169, 254, _): return false               // link-local (cloud metadata)
        case (172, 16...31, _): return false
        case (192, 0, 0), (192, 0, 2): return false    // IETF protocol assignments, TEST-NET-1
        case (192, 88, 99): return false               // 6to4 relay anycast
        case (192, 168, _): return false
        case (198, 18...19, _): return false           // benchmarking
        case (198, 51, 100), (203, 0, 113): return false
        default: return a[0] < 224                     // multicast, reserved, broadcast
        }
    }

    /// True for an IPv6 address given as its sixteen bytes that is public
    /// (an IPv4-mapped or NAT64 address is judged by its IPv4 part).
    public static func isPublic(ipv6 a: [UInt8]) -> Bool {
        guard a.count == 16 else { return false }
        if a[0..<10].allSatisfy({ $0 == 0 }) && a[10] == 0xff && a[11] == 0xff { return isPublic(ipv4: Array(a[12...])) }
        if a[0..<12] == [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0] { return isPublic(ipv4: Array(a[12...])) }
        if a[0..<15].allSatisfy({ $0 == 0 }) { return false }          // :: and ::1
        if a[0] & 0xfe == 0xfc { return false }                          // unique local fc00::/7
        if a[0] == 0xfe && a[1] & 0xc0 == 0x80 { return false }          // link-local fe80::/10
        if a[0] == 0xff { return false }                                 // multicast
        if a[0] == 0x20 && a[1] == 0x01 && a[2] == 0x0d && a[3] == 0xb8 { return false }  // documentation
        if a[0] == 0x01 && a[1..<8].allSatisfy({ $0 == 0 }) { return false }               // discard-only 100::/64
        return a[0] & 0xe0 == 0x20                                       // global unicast 2000::/3
    }
}
