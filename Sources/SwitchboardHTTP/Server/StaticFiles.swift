import Foundation

/// Files served from the `Public/` folder (the web chat client and, later, the
/// admin dashboard): `GET /` is `index.html`; other paths map to files below
/// the root. Hidden files, `..` and anything resolving outside the root are
/// refused. Files are read per request (they are small, and edits show at once).
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

    /// The file for a request path: its bytes and content type, or nil.
    public func file(for path: String) -> (bytes: [UInt8], contentType: String)? {
        let relative = path == "/" ? "index.html" : String(path.drop { $0 == "/" })
        let segments = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard !relative.isEmpty, !segments.contains(where: { $0.isEmpty || $0.hasPrefix(".") }) else { return nil }
        var candidate = URL(fileURLWithPath: root).appendingPathComponent(relative)
        if candidate.pathExtension.isEmpty { candidate.appendPathExtension("html") }  // /admin -> admin.html
        let resolved = candidate.resolvingSymlinksInPath().path
        guard resolved.hasPrefix(root + "/"), let data = FileManager.default.contents(atPath: resolved) else { return nil }
        return ([UInt8](data), Self.contentType(of: candidate.pathExtension))
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
