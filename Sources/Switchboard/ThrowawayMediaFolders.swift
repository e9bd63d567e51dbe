import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The media folders of servers with no folder of their own (`:memory:`,
/// or a PostgreSQL node's cache): `switchboard-media-PID-N` in the
/// temporary directory, each removed when its server stops. A server that
/// is killed (`kill -9`, a crash, the OOM killer) cannot remove its own, so
/// the next one to make such a folder removes every one whose process is
/// gone; a folder of a process still running (another server) is kept.
enum ThrowawayMediaFolders {
    static let prefix = "switchboard-media-"

    /// A new folder's path for this process, in `directory`.
    static func newPath(in directory: String = NSTemporaryDirectory()) -> String {
        (directory.hasSuffix("/") ? directory : directory + "/")
            + "\(prefix)\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// Removes the folders in `directory` whose process no longer runs;
    /// how many it removed.
    @discardableResult
    static func removeAbandoned(in directory: String = NSTemporaryDirectory()) -> Int {
        let files = FileManager.default
        guard let names = try? files.contentsOfDirectory(atPath: directory) else { return 0 }
        var removed = 0
        for name in names where name.hasPrefix(prefix) {
            guard let pid = name.dropFirst(prefix.count).split(separator: "-").first.flatMap({ Int32($0) }), pid > 0,
                  pid != ProcessInfo.processInfo.processIdentifier, kill(pid, 0) == -1, errno == ESRCH else { continue }
            if (try? files.removeItem(atPath: (directory as NSString).appendingPathComponent(name))) != nil { removed += 1 }
        }
        return removed
    }
}
