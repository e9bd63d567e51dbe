#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A finished file kept under its final name so that a crash leaves either
/// no file by that name or the whole one: synced, renamed, then its folder
/// synced (the rename itself made durable). What uploads' files and a
/// backup's database copy are kept by.
public enum DurableRename {
    /// Keeps the file at `temporary` as `final` (in the same folder),
    /// first giving it `mode` when one is given. Nil when it is kept; else
    /// the step that failed and its `errno`.
    public static func keep(_ temporary: String, as final: String, mode: mode_t? = nil) -> (step: String, errno: Int32)? {
        let descriptor = open(temporary, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return ("open \(temporary)", errno) }
        if let mode, fchmod(descriptor, mode) != 0 {
            let error = errno
            close(descriptor)
            return ("chmod \(temporary)", error)
        }
        let synced = fsync(descriptor) == 0 ? 0 : errno
        close(descriptor)
        guard synced == 0 else { return ("fsync", synced) }
        guard rename(temporary, final) == 0 else { return ("rename", errno) }
        let path = final.lastIndex(of: "/").map { $0 == final.startIndex ? "/" : String(final[..<$0]) } ?? "."
        let folder = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
        return nil
    }
}
