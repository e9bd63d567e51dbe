#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file operation of the media store that the system refused.
public enum MediaFileError: Error, CustomStringConvertible {
    /// `call` failed with `errno`.
    case system(String, Int32)
    /// An id that is not an upload's (never turned into a path).
    case badID

    public var description: String {
        switch self {
        case .system(let call, let code): return "\(call): \(String(cString: strerror(code)))"
        case .badID: return "not an upload id"
        }
    }
}
