import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Files served from the `Public/` folder (the web chat client and, later, the
/// admin dashboard): `GET /` is `index.html`; other paths map to files below
/// the root. Hidden files, `..` and anything resolving outside the root are
/// refused. Files are read per request (they are small, and edits show at once),
/// each with an entity tag from its inode, size and modification time: a
/// browser revalidating (`Cache-Control: no-cache`) with `If-None-Match`
/// gets a 304 and the file is not read, where every page load fetched the
/// whole page and its scripts again (about 100 KiB).
public struct StaticFiles: Sendable {
    /// The folder served, resolved to an absolute path with links followed.
    public let root: String

    /// - Returns: nil when `root` is not a folder.
    public init?(root: String) {
        let resolved = URL(fileURLWithPath: root).standardizedFileURL.resolvingSymlinksInPath().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isFolder), isFolder.boolValue else { return nil }
        self.root = resolved
    }

    /// The file for a request path, or nil; not read when `ifNoneMatch` names its tag.
    public func file(for path: String, ifNoneMatch: String? = nil) -> StaticFile? {
        let relative = path == "/" ? "index.html" : String(path.drop { $0 == "/" })
        let segments = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard !relative.isEmpty, !segments.contains(where: { $0.isEmpty || $0.hasPrefix(".") }) else { return nil }
        var candidate = URL(fileURLWithPath: root).appendingPathComponent(relative)
        if candidate.pathExtension.isEmpty { candidate.appendPathExtension("html") }  // /admin -> admin.html
        let resolved = candidate.resolvingSymlinksInPath().path
        guard resolved.hasPrefix(root + "/") else { return nil }
        // The tag and the bytes from one open file: an edit between a stat and a read could not pair them wrongly.
        // O_NONBLOCK: a FIFO put in the folder would hold the open, on the thread that serves, until a writer came.
        let descriptor = open(resolved, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        let modified = UInt64(status.st_mtim.tv_sec) &* 1_000_000_000 &+ UInt64(status.st_mtim.tv_nsec)
        let etag = "\"\(String(UInt64(status.st_ino), radix: 16))-\(String(UInt64(status.st_size), radix: 16))-\(String(modified, radix: 16))\""
        let contentType = Self.contentType(of: candidate.pathExtension)
        if let ifNoneMatch, EntityTags.listed(etag, in: ifNoneMatch) {
            return StaticFile(contentType: contentType, etag: etag, bytes: nil)
        }
        guard let data = try? handle.readToEnd() ?? Data() else { return nil }
        return StaticFile(contentType: contentType, etag: etag, bytes: [UInt8](data))
    }

    static func contentType(of fileExtension: String) -> String {
        switch fileExtension.lowercased() {
        case "html": return "text/html; charset=utf-8"
        case "js": return "text/javascript; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "ico": return "image/x-icon"
        case "json": return "application/json; charset=utf-8"
        default: return "application/octet-stream"
        }
    }
}
