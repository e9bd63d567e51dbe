/// A request target in absolute form (`GET http://host:port/path HTTP/1.1`,
/// RFC 9112 3.2.2), which a server must accept as well as `/path`: its
/// path, and its authority, which stands for the request's `Host` (the
/// header's value is then ignored, though an HTTP/1.1 request still needs
/// one).
struct AbsoluteFormTarget: Equatable {
    /// The path from the first `/` after the authority; `/` when there is none.
    let path: String
    /// `host[:port]` as the target gives it.
    let authority: String

    init(path: String, authority: String) {
        self.path = path
        self.authority = authority
    }

    /// The parts of `target` (libmicrohttpd's decoded URL, no query), nil
    /// for a target in origin form (`/...`, nearly every request: one byte
    /// read) or any scheme but http and https.
    init?(_ target: String) {
        guard let first = target.utf8.first, first != UInt8(ascii: "/") else { return nil }
        let lower = target.prefix(8).lowercased()
        let schemeLength = lower.hasPrefix("http://") ? 7 : lower.hasPrefix("https://") ? 8 : 0
        guard schemeLength > 0 else { return nil }
        let rest = target.dropFirst(schemeLength)
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        authority = String(rest[..<slash])
        path = slash == rest.endIndex ? "/" : String(rest[slash...])
    }
}
