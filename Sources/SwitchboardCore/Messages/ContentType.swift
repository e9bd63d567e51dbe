/// What the HTTP side and the upload rules read from a `Content-Type`.
public enum ContentType {
    /// Its media type: before any `;`, without the spaces and tabs around
    /// it, lower-cased (`" Image/JPEG ; q=1"` is `image/jpeg`). (Foundation's
    /// trimming bridged through `NSString` and was 4 % of a publishing
    /// worker's time.)
    public static func essence(of contentType: String) -> String {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        // Already its own essence (`application/json`, as most clients send
        // it): no parameters, no space, no capital, ASCII. Returned as it is.
        if contentType.everyUTF8Byte({ $0 < 0x80 && $0 != UInt8(ascii: ";") && !isSpace($0)
                                        && !($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) }) {
            return contentType
        }
        let essence = contentType.utf8.prefix { $0 != UInt8(ascii: ";") }
        guard let first = essence.firstIndex(where: { !isSpace($0) }), let last = essence.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(decoding: essence[first...last], as: UTF8.self).lowercased()
    }
}
