#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SwitchboardCore

/// An upload's temporary file: created exclusively (mode 0600), written
/// with plain `write(2)`, closed before it is kept or discarded.
final class DiskTemporaryFile: TemporaryMediaFile {
    let path: String
    private var descriptor: Int32

    init(path: String) throws {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw MediaFileError.system("create \(path)", errno) }
    }

    deinit { close() }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw MediaFileError.system("write", errno)
            }
            offset += written
        }
    }

    func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }
}
