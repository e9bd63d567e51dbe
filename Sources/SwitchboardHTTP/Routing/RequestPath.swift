/// The one reading of a request's path that every route, the WebSocket
/// paths and the static files use, so that access is decided on what was
/// matched and never on a second reading of the raw path.
///
/// What a path means, everywhere alike (docs/PROTOCOL.md, "Paths"):
/// - it starts with `/`; a trailing `/` is the same path without it;
/// - an empty segment (`//`), `.` or `..` makes it no path at all: 400
///   `invalid_path`, whatever follows (never a route, a file or an upgrade);
/// - `%2F` is a `/`: libmicrohttpd decodes the path before it is read here,
///   so `/api%2Fadmin%2Fstats` is `/api/admin/stats`, with its access.
public enum RequestPath {
    /// The segments of a canonical path, nil when it is not one: where each
    /// lies in the path's contiguous bytes (a string is made only when one
    /// is asked for: ``PathSegments``).
    public static func read(_ path: String) -> PathSegments? {
        var path = path
        var bounds: [Range<Int>] = []
        bounds.reserveCapacity(6)
        let canonical = path.withUTF8 { bytes -> Bool in
            guard bytes.first == UInt8(ascii: "/") else { return false }
            var start = 1
            for offset in 1...bytes.count where offset == bytes.count || bytes[offset] == UInt8(ascii: "/") {
                let length = offset - start
                if length == 0 {
                    // Only the very end may be empty: "/" itself, or one trailing slash.
                    if offset < bytes.count { return false }
                } else {
                    if bytes[start] == UInt8(ascii: "."),
                       length == 1 || (length == 2 && bytes[start + 1] == UInt8(ascii: ".")) {
                        return false
                    }
                    bounds.append(start..<offset)
                }
                start = offset + 1
            }
            return true
        }
        return canonical ? PathSegments(path: path, bounds: bounds) : nil
    }

    /// The segments of a canonical path as strings, nil when it is not one.
    public static func segments(_ path: String) -> [String]? {
        read(path)?.strings
    }

    /// The canonical spelling of a canonical path (no trailing slash but `/` itself).
    public static func canonical(_ segments: [String]) -> String {
        "/" + segments.joined(separator: "/")
    }
}
