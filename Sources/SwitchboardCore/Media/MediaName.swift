/// An uploaded file's name as kept and shown: the last path component, no
/// control characters (NUL, CR, LF among them), no quotes or backslashes
/// (it goes into `Content-Disposition`), at most 200 characters; a name
/// with nothing left becomes `upload.EXT`.
public enum MediaName {
    public static func clean(_ name: String?, type: MediaType) -> String {
        // By scalars, not characters: a slash can hide inside a grapheme (U+0600 before it makes one).
        var last = Substring(name ?? "").unicodeScalars[...]
        if let slash = last.lastIndex(where: { $0 == "/" || $0 == "\\" }) { last = last[last.index(after: slash)...] }
        var kept = String(String.UnicodeScalarView(last.filter { scalar in
            scalar.value >= 0x20 && scalar.value != 0x7F && !(0x80...0x9F).contains(scalar.value) && scalar != "\"" && scalar != "\\"
                && !(0x2028...0x2029).contains(scalar.value) && !(0x202A...0x202E).contains(scalar.value)
        }))
        kept = kept.prefix(200).trimmingSpaces()
        if kept.isEmpty || kept == "." || kept == ".." { return "upload.\(type.fileExtension)" }
        return kept
    }
}
