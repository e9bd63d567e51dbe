#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SwitchboardCore

/// Uploads' files in one folder (`--media-dir`): `ID` and `ID.thumb`, and
/// temporary files `tmp-RANDOM` until they are kept. A kept file was synced
/// before its rename, and the folder after it, so a crash leaves either no
/// file under the id or the whole one. Temporary files left by a crash are
/// removed at start.
public final class MediaDirectory: MediaFileStore {
    /// The folder.
    public let path: String

    /// Opens (creating) the folder and removes temporary files a crash left.
    public init(path: String) throws {
        self.path = path
        if mkdir(path, 0o700) != 0, errno != EEXIST { throw MediaFileError.system("mkdir \(path)", errno) }
        for name in try Self.names(in: path) where name.hasPrefix("tmp-") { unlink(path + "/" + name) }
    }

    public func temporaryFile() throws -> TemporaryMediaFile {
        try DiskTemporaryFile(path: path + "/tmp-" + MediaID.make())
    }

    public func checkWritable() throws {
        let file = try temporaryFile()
        defer { discard(file.path) }
        try [UInt8](repeating: 0, count: 64 * 1024).withUnsafeBytes { try file.write($0) }
        try file.finish()
    }

    public func keep(_ temporary: String, as id: String, _ variant: MediaVariant) throws {
        guard MediaID.isValid(id) else { throw MediaFileError.badID }
        if let failure = DurableRename.keep(temporary, as: file(id, variant)) { throw MediaFileError.system(failure.step, failure.errno) }
    }

    public func open(_ id: String, _ variant: MediaVariant) throws -> OpenedMediaFile? {
        guard MediaID.isValid(id) else { return nil }
        let descriptor = Glibc.open(file(id, variant), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw MediaFileError.system("open", errno)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            close(descriptor)
            throw MediaFileError.system("fstat", errno)
        }
        return OpenedMediaFile(descriptor: descriptor, size: Int64(status.st_size))
    }

    public func remove(_ id: String) throws {
        guard MediaID.isValid(id) else { return }
        for variant in [MediaVariant.original, .thumbnail] where unlink(file(id, variant)) != 0 && errno != ENOENT {
            throw MediaFileError.system("unlink", errno)
        }
    }

    public func discard(_ temporary: String) {
        unlink(temporary)
    }

    public func bytes(of temporary: String, at offset: Int64, count: Int) -> [UInt8] {
        let descriptor = Glibc.open(temporary, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0, count > 0 else { return [] }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + filled, count - filled, off_t(offset) + off_t(filled)) }
            if read < 0, errno == EINTR { continue }
            guard read > 0 else { break }
            filled += read
        }
        return Array(bytes.prefix(filled))
    }

    public func keptIDs(storedBefore: Int64) throws -> [String] {
        var ids = Set<String>()
        for name in try Self.names(in: path) {
            let id = name.hasSuffix(".thumb") ? String(name.dropLast(6)) : name
            guard MediaID.isValid(id) else { continue }
            var status = stat()
            guard stat(path + "/" + name, &status) == 0 else { continue }
            let modified = Int64(status.st_mtim.tv_sec) * 1000 + Int64(status.st_mtim.tv_nsec) / 1_000_000
            if modified < storedBefore { ids.insert(id) }
        }
        return ids.sorted()
    }

    private func file(_ id: String, _ variant: MediaVariant) -> String {
        Self.file(id, variant, in: path)
    }

    /// Where `id`'s `variant` is kept in `folder`: `ID`, or `ID.thumb`.
    public static func file(_ id: String, _ variant: MediaVariant, in folder: String) -> String {
        variant == .original ? "\(folder)/\(id)" : "\(folder)/\(id).thumb"
    }

    /// Removes every file and the folder itself (a folder that was only a
    /// cache or held `:memory:`'s uploads, when its server stops).
    public func removeEverything() {
        for name in (try? Self.names(in: path)) ?? [] { unlink(path + "/" + name) }
        rmdir(path)
    }

    /// The names in `folder`, but `.` and `..`.
    private static func names(in folder: String) throws -> [String] {
        guard let directory = opendir(folder) else { throw MediaFileError.system("opendir \(folder)", errno) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
