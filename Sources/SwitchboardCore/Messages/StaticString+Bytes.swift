#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension StaticString {
    /// Whether `bytes` are this literal's UTF-8 bytes, byte for byte: a
    /// name or a word read where it lies (a JSON member's name, a path's
    /// segment, a JSON literal) compared without a string made of it.
    @inlinable
    public func equals(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        withUTF8Buffer { literal in
            literal.count == bytes.count
                && (literal.isEmpty || memcmp(literal.baseAddress!, bytes.baseAddress!, literal.count) == 0)
        }
    }
}
