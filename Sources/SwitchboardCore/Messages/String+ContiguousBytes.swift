#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension StringProtocol {
    /// `body` over the UTF-8 bytes: the string's own, borrowed in place
    /// when it is native (nothing copied, nothing retained), else an
    /// array's made of them.
    @inlinable
    public func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        return try Array(utf8).withUnsafeBufferPointer(body)
    }

    /// Whether every UTF-8 byte satisfies `predicate`, read as one buffer
    /// when the string is native (a tight loop: walking a `UTF8View` index
    /// by index costs about ten times as much), else byte by byte.
    @inlinable
    public func everyUTF8Byte(_ predicate: (UInt8) -> Bool) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.allSatisfy(predicate) } ?? utf8.allSatisfy(predicate)
    }

    /// Whether one of the UTF-8 bytes is `byte`: `memchr` over the buffer
    /// when the string is native (a publish's text checked for NUL was 240
    /// instructions byte by byte, callgrind), else byte by byte.
    @inlinable
    public func containsUTF8Byte(_ byte: UInt8) -> Bool {
        utf8.withContiguousStorageIfAvailable { bytes in
            guard let start = bytes.baseAddress, !bytes.isEmpty else { return false }
            return memchr(start, Int32(byte), bytes.count) != nil
        } ?? utf8.contains(byte)
    }
}
