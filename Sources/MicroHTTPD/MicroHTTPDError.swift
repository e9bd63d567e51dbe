/// A failure of libmicrohttpd to do what was asked.
public struct MicroHTTPDError: Error, CustomStringConvertible, Sendable {
    /// What was being attempted, e.g. `"start daemon on 127.0.0.1:8080"`.
    public var operation: String
    /// The `errno` observed right after the failing call (0 when not meaningful).
    public var errno: Int32

    public init(operation: String, errno: Int32) {
        self.operation = operation
        self.errno = errno
    }

    public var description: String {
        errno == 0 ? "libmicrohttpd could not \(operation)"
            : "libmicrohttpd could not \(operation): \(String(cString: strerror(errno)))"
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
