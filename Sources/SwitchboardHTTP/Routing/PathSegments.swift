import SwitchboardCore

/// A canonical path as ``RequestPath`` read it: the path and where each of
/// its segments lies in its UTF-8 bytes. A route's literal is compared
/// with a segment's bytes where they lie, and a string is made only for
/// the segments a route takes as parameters, or for the rare request that
/// no route has (``strings``): four strings a request were 1,200
/// instructions of a long poll's routing (callgrind).
public struct PathSegments: Sendable {
    /// The path that was read (percent-decoded by libmicrohttpd).
    public let path: String
    /// Each segment's byte offsets in `path`, in order (no segment is empty).
    private let bounds: [Range<Int>]

    init(path: String, bounds: [Range<Int>]) {
        self.path = path
        self.bounds = bounds
    }

    /// How many segments the path has (0 for `/`).
    public var count: Int { bounds.count }

    /// Whether segment `index` is `literal`, byte for byte.
    public func segment(_ index: Int, is literal: StaticString) -> Bool {
        withBytes { bytes, bounds in literal.equals(UnsafeBufferPointer(rebasing: bytes[bounds[index]])) }
    }

    /// Calls `body` with the path's UTF-8 bytes and each segment's bounds in them.
    public func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>, [Range<Int>]) throws -> Result) rethrows -> Result {
        // Native since it was read: its own bytes, borrowed (a `var` copy
        // for `withUTF8` was a retain and a release at every call, several
        // a request: the admin check, each route tried, each parameter).
        try path.withUTF8Bytes { try body($0, bounds) }
    }

    /// Segment `index` as a string of its own.
    public subscript(index: Int) -> String {
        // Both ends are next to a "/" or at an end: whole scalars, valid as the path is.
        withBytes { bytes, bounds in String(decoding: UnsafeBufferPointer(rebasing: bytes[bounds[index]]), as: UTF8.self) }
    }

    /// Every segment as a string, in order.
    public var strings: [String] { bounds.indices.map { self[$0] } }
}
