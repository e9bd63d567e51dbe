/// A `Range: bytes=...` header read against a file of `size` bytes (RFC
/// 9110 §14): one range is served (206); several, or a header that cannot
/// be read or is reversed, are ignored (the whole file, 200), as the RFC
/// lets a server do; a range that starts past the end is unsatisfiable (416).
/// With `If-Range`, only for the same file (``init(header:size:ifRange:etag:)``).
enum ByteRange: Equatable {
    /// Serve the whole file.
    case whole
    /// Serve bytes `start...end` (inclusive).
    case part(start: Int64, end: Int64)
    /// 416 with `Content-Range: bytes */size`.
    case unsatisfiable

    /// The range of `header`, or the whole file when `ifRange` (RFC 9110
    /// 13.1.5) is not `etag`: a client resuming a download of another
    /// version gets the whole file, not a piece of this one. A date never
    /// matches: no answer gives a `Last-Modified`.
    init(header: String?, size: Int64, ifRange: String?, etag: String) {
        if let ifRange, ifRange.trimmingCharacters(in: " \t") != etag {
            self = .whole
            return
        }
        self.init(header: header, size: size)
    }

    init(header: String?, size: Int64) {
        guard let header else { self = .whole; return }
        let trimmed = header.trimmingCharacters(in: " \t")
        guard trimmed.lowercased().hasPrefix("bytes="), size >= 0 else { self = .whole; return }
        let spec = trimmed.dropFirst(6).trimmingCharacters(in: " \t")
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { self = .whole; return }
        let first = spec[..<dash].trimmingCharacters(in: " \t")
        let last = spec[spec.index(after: dash)...].trimmingCharacters(in: " \t")
        func number(_ text: String) -> Int64? {
            guard !text.isEmpty, text.count <= 18, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return Int64(text)
        }
        if first.isEmpty {
            // A suffix: the last N bytes.
            guard let count = number(last) else { self = .whole; return }
            guard count > 0, size > 0 else { self = .unsatisfiable; return }
            self = .part(start: max(0, size - count), end: size - 1)
            return
        }
        guard let start = number(first) else { self = .whole; return }
        let end: Int64
        if last.isEmpty {
            end = size - 1
        } else {
            guard let value = number(last) else { self = .whole; return }
            guard value >= start else { self = .whole; return }
            end = min(value, size - 1)
        }
        guard start < size else { self = .unsatisfiable; return }
        self = .part(start: start, end: end)
    }
}

private extension StringProtocol {
    func trimmingCharacters(in set: String) -> String {
        let characters = Set(set)
        return String(String(self).drop(while: { characters.contains($0) }).reversed().drop(while: { characters.contains($0) }).reversed())
    }
}
