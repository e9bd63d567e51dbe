import Foundation

/// Comparing an `ETag` with a request's `If-None-Match` list (RFC 9110
/// 13.1.2): for uploads and for the static files alike.
enum EntityTags {
    /// Whether an `If-None-Match` list names `etag`: `*`, or the tag
    /// compared weakly, as RFC 9110 13.1.2 asks there (`W/"x"` is `"x"`; a
    /// cache may hold it so). `If-Range` compares strongly (``ByteRange``).
    static func listed(_ etag: String, in ifNoneMatch: String) -> Bool {
        ifNoneMatch.split(separator: ",").contains { listed in
            let tag = listed.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == etag || (tag.hasPrefix("W/") && tag.dropFirst(2) == etag)
        }
    }
}
