#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SwitchboardCore

/// An upload's temporary file: created exclusively (mode 0600), written
/// through a buffer of its own (256 KiB: libmicrohttpd hands over a body a
/// few KiB at a time, and a `write(2)` for each was a fifth of a 100 MiB
/// upload's time), closed before it is kept or discarded.
final class DiskTemporaryFile: TemporaryMediaFile {
    let path: String
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    private static let bufferBytes = 256 * 1024

    init(path: String) throws {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw MediaFileError.system("create \(path)", errno) }
    }

    deinit { close() }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        if buffer.count + bytes.count > Self.bufferBytes { try flush() }
        if bytes.count >= Self.bufferBytes {
            try writeAll(bytes)
        } else {
            if buffer.capacity < Self.bufferBytes { buffer.reserveCapacity(Self.bufferBytes) }
            buffer.append(contentsOf: bytes)
        }
    }

    func finish() throws {
        try flush()
        close()
    }

    func close() {
        buffer = []
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { try writeAll($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        guard descriptor >= 0 else { throw MediaFileError.system("write to a closed file", EBADF) }
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
}
