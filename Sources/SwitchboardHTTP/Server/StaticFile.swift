/// A file of ``StaticFiles`` as one request gets it: its type, its entity
/// tag and, unless the request's `If-None-Match` named that tag, its bytes.
public struct StaticFile: Sendable {
    /// The `Content-Type` its extension gives.
    public let contentType: String
    /// `"INODE-SIZE-MTIME"` in hex (nanoseconds), nginx's way with the inode
    /// added: it changes with every edit of the file, or its replacement.
    public let etag: String
    /// The file's bytes; nil when the request's `If-None-Match` named ``etag`` (not read: a 304).
    public let bytes: [UInt8]?
}
