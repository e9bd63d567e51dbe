extension Array where Element == UInt8 {
    /// Whether the bytes are valid UTF-8 (what `String(validating:as:)`
    /// decides), checked by `UTF8Span`: the standard library's generic
    /// `String(validating:as:)` has the runtime look up two types' metadata
    /// at every call, about 700 instructions before it reads a byte
    /// (callgrind, a publish's body).
    @inlinable
    public var isValidUTF8: Bool {
        (try? UTF8Span(validating: span)) != nil
    }

    /// The bytes as a string when they are valid UTF-8, else nil
    /// (`String(validating:as:)`, checked as ``isValidUTF8`` is).
    @inlinable
    public var validUTF8String: String? {
        guard let text = try? UTF8Span(validating: span) else { return nil }
        return String(copying: text)
    }
}

extension Array where Element == UInt8 {
    /// Appends the UTF-8 bytes of `literal`, text written in the source, in
    /// one copy: `append(contentsOf: "…".utf8)` goes through the generic
    /// sequence path, about 170 instructions for a short key (callgrind,
    /// seven a message's JSON).
    @inlinable
    public mutating func append(literal: StaticString) {
        literal.withUTF8Buffer { append(contentsOf: $0) }
    }
}
